// The current trick, drawn before the seats that played it, and a trick
// just taken, held on the table a moment.
import { $, card, el, nameOf } from './cards.js';

// The trick area: a faceup, spread-out area whose cards were all played,
// each shown before the seat that played it.
export function trickArea(v) {
  return v.areas.find((a) => !a.facedown && !a.squaredup && a.by && a.by.length
    && a.by.every((s) => s !== null) && new Set(a.by).size === a.by.length);
}

// A trick is often taken in the same step as its last card is played: the
// view goes from three cards to none.  The page keeps the whole trick from
// what it was told: the cards it showed, then the cards the log says were
// played after them (by seats not in it yet).  It stays on the table until
// the next card is played there, and at least HOLD ms.
const HOLD = 1500;
let lastTrick = null;     // the trick area as last rendered (copied: patches change views in place)
let heldTrick = null;     // {name, cards, by, winner, since}: a trick just taken
let holdTimer = null;

// The trick just taken, while it is held (null: none).
export function held() { return heldTrick; }

// Called with each new view, before it is drawn.
export function noteView(v) {
  const taken = takenTrick(lastTrick, v);
  if (taken) heldTrick = taken;
  lastTrick = noteTrick(v);
}

function noteTrick(v) {
  const area = trickArea(v) || (lastTrick && v.areas.find((a) => a.name === lastTrick.name));
  const stash = {};
  for (const p of v.players) stash['p' + p.seat] = p.stash_size;
  for (const [i, t] of (v.teams || []).entries()) stash['t' + i] = t.stash_size;
  return area ? { name: area.name, cards: (area.cards || []).slice(), by: (area.by || []).slice(),
                  logEnd: v.log_start + v.log.length, stash } : null;
}

function takenTrick(before, v) {
  if (!before || !before.cards.length) return null;
  const now = v.areas.find((a) => a.name === before.name);
  // (a trick may put each card on top, as Rolling Stone's does: taken is
  // a card gone from it, not a change of order)
  if (!now || before.cards.every((c) => (now.cards || []).includes(c))) return null;
  const cards = before.cards.slice();
  const by = before.by.slice();
  // the events of this trick: up to the first card played into the next
  // (a page many steps behind is told of both at once)
  const fresh = [];
  for (const e of v.log.slice(Math.max(0, before.logEnd - v.log_start))) {
    if (e.kind === 'played' && e.card !== null && e.by !== null) {
      if (by.includes(e.by) || by.length >= v.players.length) break;
      cards.push(e.card);
      by.push(e.by);
    }
    fresh.push(e);
  }
  // who took it: the player a message names ("Ada takes the trick."), else
  // the one player (or team) whose pile grew by the trick
  const names = v.players.map((p) => p.name);
  const said = fresh.map((e) => e.kind === 'message' && /\btrick\b/i.test(e.text)
    && names.find((n) => e.text.startsWith(n + ' '))).find((n) => n);
  if (said) return { name: before.name, cards, by, winner: said, since: Date.now() };
  const grew = [];
  for (const p of v.players) if (p.stash_size > (before.stash['p' + p.seat] || 0)) grew.push(p.name);
  const teams = (v.teams || []).filter((t, i) => t.stash_size > (before.stash['t' + i] || 0));
  const winner = teams.length === 1 ? teams[0].name : grew.length === 1 ? grew[0] : null;
  return { name: before.name, cards, by, winner, since: Date.now() };
}

// The trick on the table (the held one, else the current); again(): draw
// the table anew once the pause is over.  The trick's box stands for its
// area: a card may be dropped on it (data-area).
export function renderTrick(v, places, again) {
  const trick = $('trick');
  const area = v.areas.find((a) => heldTrick && a.name === heldTrick.name);
  if (heldTrick && area && area.cards && area.cards.length
      && Date.now() - heldTrick.since >= HOLD) heldTrick = null;     // the next trick is led
  const shown = heldTrick || trickArea(v);
  trick.replaceChildren();
  trick.hidden = !shown;
  trick.classList.toggle('taken', !!heldTrick);
  if (!shown) { delete trick.dataset.area; return; }
  trick.dataset.area = shown.name;
  shown.cards.forEach((c, i) => {
    const e = card(c);
    e.classList.add('played', 'at-' + (places[shown.by[i]] || 'b'));
    e.title = c + ', played by ' + nameOf(v, shown.by[i]);
    trick.append(e);
  });
  // an empty, hidden card's room before every other seat: the grid keeps
  // the table's shape, so a trick's first card stands before the seat that
  // led it, not wherever a lone grid cell lands
  const used = new Set(shown.by.map((s) => places[s] || 'b'));
  for (const at of new Set(Object.values(places))) {
    if (used.has(at)) continue;
    const slot = el('div', 'card slot at-' + at);
    slot.setAttribute('aria-hidden', 'true');
    trick.append(slot);
  }
  if (heldTrick && heldTrick.winner) trick.append(el('p', 'taker', heldTrick.winner + ' takes the trick'));
  // once the pause is over, a next card already led replaces the trick
  const left = heldTrick ? heldTrick.since + HOLD - Date.now() : 0;
  if (left > 0 && !holdTimer) {
    holdTimer = setTimeout(() => { holdTimer = null; again(); }, left + 20);
  }
}
