// The page of one seat (or of the spectators) at a served Pip table.
// Every text from the program is set with textContent, never as markup.
// State comes from GET state, then the live WebSocket: the whole view on
// connecting, a patch to it (RFC 6902) each time the game moves on.
// Answers go by POST answer.  docs/web.md describes the API.
'use strict';

const SUITS = { Spades: '\u2660', Hearts: '\u2665', Diamonds: '\u2666', Clubs: '\u2663' };
const RANKS = { Ace: 'A', Two: '2', Three: '3', Four: '4', Five: '5', Six: '6', Seven: '7',
                Eight: '8', Nine: '9', Ten: '10', Jack: 'J', Queen: 'Q', King: 'K' };
// The key of each option: 1-9, 0, then the letters (every option up to 36;
// the arrow keys and Enter reach all of them).
const KEYS = '1234567890abcdefghijklmnopqrstuvwxyz';
// Where the other seats sit, going round from the left of the page's seat
// (which sits at the bottom), by how many others there are.
const PLACES = [[], ['t'], ['l', 'r'], ['l', 't', 'r'], ['l', 'tl', 'tr', 'r'],
                ['l', 'tl', 't', 'tr', 'r'], ['bl', 'l', 'tl', 'tr', 'r', 'br'],
                ['bl', 'l', 'tl', 't', 'tr', 'r', 'br']];
const $ = (id) => document.getElementById(id);
let view = null;          // the last view, kept up to date by the live patches
let version = -1;         // the table's version it shows (a late older view is ignored)
// The decision whose answer is in flight: a second answer to it is not sent.
// Only that one: the live patch may show the next decision before the reply
// comes, and a key pressed for it must play.
let answering = null;
let problem = '';         // the last refusal: shown until the next action

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

// A card drawn from its name ("Queen of Spades"); anything else as plain text.
function card(name, tag = 'span') {
  const [rank, suit] = String(name).split(' of ');
  const e = el(tag, 'card');
  e.title = name;
  e.setAttribute('aria-label', name);
  if (!(rank in RANKS) || !(suit in SUITS)) {
    e.textContent = name;
    return e;
  }
  if (suit === 'Hearts' || suit === 'Diamonds') e.classList.add('red');
  e.append(el('span', 'rank', RANKS[rank]), el('span', 'suit', SUITS[suit]));
  return e;
}

// A set of cards to play at once (a 'cards' decision's option, as
// dialogue.set_label writes it: "A", "A and B", "A, B and C"), or Pass.
function cardSet(label) {
  const b = el('button', 'option set');
  b.title = label;
  b.setAttribute('aria-label', label);
  const names = label.split(/, | and /);
  if (!names.every((n) => n.split(' of ')[0] in RANKS)) b.textContent = label;
  else names.forEach((n) => b.append(card(n)));
  return b;
}

function back(label) {
  const e = el('span', 'card back', label);
  e.setAttribute('aria-hidden', 'true');
  return e;
}

function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

function nameOf(v, seat) {
  const p = v.players.find((q) => q.seat === seat);
  return p ? p.name : 'seat ' + (seat + 1);
}

function render(v, at) {
  if (at < version) return;
  version = at;
  view = v;
  const taken = takenTrick(lastTrick, v);
  if (taken) heldTrick = taken;
  lastTrick = noteTrick(v);
  const me = v.players.find((p) => p.seat === v.seat);
  document.title = (v.decision ? '\u25b6 Your turn \u2014 ' : '') + v.game + ' \u2014 Pip';
  $('game').textContent = v.game;
  renderTurn(v);
  renderNotice(v, me);
  renderTable(v);
  renderScores(v);
  renderHand(v, me);
  renderDecision(v);
  renderProblem();
  renderLog(v);
  renderResult(v, me);
  renderLink();
  $('to-lobby').hidden = !v.lobby;
}

// The end of the game: who won, then every team (or player) by score, with
// what each took; a rematch and the way back to the lobby for a lobby's table.
let resultSeen = false;   // the panel was closed to look at the table

function renderResult(v, me) {
  const box = $('result');
  box.hidden = !v.ending || resultSeen;
  if (!v.ending) { resultSeen = false; return; }
  const e = v.ending;
  // (an extension's ending places every seat: 0 best; the worst place lost)
  const placed = e.places ? v.players.map((p) => e.places[p.seat]) : null;
  const worst = placed ? Math.max(...placed) : 0;
  const mine = me && (placed ? e.kind === 'winner' && e.places[me.seat] === 0 : e.winner === me.name
    || (v.teams || []).some((t) => t.name === e.winner && t.members.includes(me.seat)));
  const lost = me && placed && worst > 0 && e.places[me.seat] === worst;
  $('result-title').textContent = e.kind === 'winner' ? (mine ? 'You win! ' : '') + e.winner + ' wins.'
    : e.kind === 'loser' ? (lost ? 'You lose. ' : '') + e.loser + ' loses.'
    : e.kind === 'no winner' ? 'The game is over: no winner.' : 'The game stopped: ' + e.error;
  const rows = standings(v, v.teams && !placed ? 'teams' : 'players');
  const winner = (r) => placed ? e.kind === 'winner' && e.places[r.seat] === 0
    : e.kind === 'winner' && (r.name === e.winner);
  const loser = (r, i) => placed ? worst > 0 && e.places[r.seat] === worst
    : i === rows.length - 1 && rows.length > 1 && e.kind === 'winner';
  const place = (r) => placed ? e.places[r.seat] : winner(r) ? 0 : 1;
  rows.sort((a, b) => place(a) - place(b) || (b.score ?? -Infinity) - (a.score ?? -Infinity));
  box.querySelector('tbody').replaceChildren(...rows.map((r, i) => {
    const tr = el('tr', (r.mine ? 'mine ' : '') + (winner(r) ? 'winner' : loser(r, i) ? 'loser' : ''));
    tr.append(el('td', 'place', winner(r) ? 'won' : String(i + 1) + '.'), el('th', '', r.who),
              el('td', '', r.score === null ? '\u2013' : String(r.score)), el('td', '', r.won));
    tr.children[1].scope = 'row';
    return tr;
  }));
  $('rematch').hidden = !(v.lobby && me);
  $('back-to-lobby').hidden = !v.lobby;
}

// The live channel's state as it is: connecting, connected, or closed (and
// then whether the page tries again).
let linkState = 'connecting';

function renderLink() {
  const over = view && view.ending;
  const text = linkState === 'open' ? (over ? 'game over \u00b7 connected' : 'connected')
    : linkState === 'closed' ? (over ? 'game over \u00b7 the server has closed the table'
      : 'disconnected: reconnecting\u2026') : 'connecting\u2026';
  $('link').textContent = text;
  $('link').dataset.state = linkState;
}

function renderTurn(v) {
  const turn = $('turn');
  turn.className = '';
  if (v.ending) {
    turn.className = 'ending';
    const e = v.ending;
    turn.textContent = e.kind === 'winner' ? 'The game was won by ' + e.winner
      : e.kind === 'loser' ? 'The game was lost by ' + e.loser
      : e.kind === 'no winner' ? 'The game is over: no winner.' : 'The game stopped: ' + e.error;
  } else if (v.decision) {
    turn.textContent = 'Your turn';
    turn.className = 'mine';
  } else if (v.turn && v.turn.kind === 'name') {
    turn.textContent = 'Waiting for seat ' + (v.turn.seat + 1)
      + (v.lobby ? ' to be taken (from the lobby)' : ' to give a name');
  } else if (v.turn) {
    turn.textContent = 'Waiting for ' + (v.turn.player || nameOf(v, v.turn.seat));
  } else {
    turn.textContent = '';
  }
  if (v.seat === null) turn.textContent += ' (watching)';
}

// A seat the game left out (fewer players than the table has seats).
function renderNotice(v, me) {
  const notice = $('notice');
  const out = v.seat !== null && !me && v.players.length > 0;
  notice.hidden = !out;
  if (out) {
    notice.textContent = 'You are not playing in this game: it was started with '
      + plural(v.players.length, 'player') + '. You can watch it from here.';
  }
}

// Who plays what: the seats round the table, the page's own at the bottom.
function renderTable(v) {
  const felt = $('felt');
  for (const old of felt.querySelectorAll('.seat')) old.remove();
  const places = placesOf(v);
  for (const p of v.players) felt.append(seatBox(v, p, places[p.seat]));
  $('empty').hidden = v.players.length > 0;
  renderTrick(v, places);
  renderAreas(v);
  renderInfo(v);
}

// Where each seat sits: the page's own at the bottom (a spectator's page:
// seat 1's), the others round from its left, so at four seats partners
// sit opposite.
function placesOf(v) {
  const seats = v.players.map((p) => p.seat);
  const mine = seats.indexOf(v.seat);
  const first = mine >= 0 ? mine : 0;
  const order = seats.slice(first).concat(seats.slice(0, first));
  const places = {};
  const layout = PLACES[Math.min(order.length - 1, PLACES.length - 1)] || [];
  order.forEach((s, i) => { places[s] = i === 0 ? 'b' : layout[i - 1] || 'b'; });
  return places;
}

function seatBox(v, p, place) {
  const box = el('div', 'seat at-' + place);
  box.dataset.seat = p.seat;
  const title = el('div', 'who');
  title.append(el('strong', 'name', p.name));
  if (v.bots.includes(p.seat)) title.append(el('span', 'tag bot', 'bot'));
  if (p.seat === v.seat) { box.classList.add('me'); title.append(el('span', 'tag', 'you')); }
  box.append(title);
  const facts = [plural(p.hand_size, 'card')];
  if (v.teams) {
    const t = v.teams.findIndex((team) => team.members.includes(p.seat));
    if (t >= 0) facts.push('team ' + (t + 1));
  } else if (p.score !== null) {
    facts.push('score ' + p.score);
  }
  facts.push(...valueFacts(p.values));
  box.append(el('div', 'facts', facts.join(' \u00b7 ')));
  if (v.turn && v.turn.seat === p.seat && !v.ending) box.classList.add('turn');
  return box;
}

// A player's or team's values `for each player` (a language extension), as
// score is shown: "bid 3", a Boolean as the game prints it ("passed True");
// an undefined one is left out.
function valueFacts(values) {
  const shown = (x) => x === true ? 'True' : x === false ? 'False' : String(x);
  return Object.entries(values || {}).filter(([, x]) => x !== null)
    .map(([name, x]) => name + ' ' + shown(x));
}

// The trick area: a faceup, spread-out area whose cards were all played,
// each shown before the seat that played it.
function trickArea(v) {
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
  if (!now || before.cards.every((c, i) => (now.cards || [])[i] === c)) return null;
  const cards = before.cards.slice();
  const by = before.by.slice();
  for (const e of v.log.slice(Math.max(0, before.logEnd - v.log_start))) {
    if (e.kind !== 'played' || e.card === null || e.by === null) continue;
    if (by.includes(e.by) || by.length >= v.players.length) break;
    cards.push(e.card);
    by.push(e.by);
  }
  // who took it: the player a message names ("Ada takes the trick."), else
  // the one player (or team) whose pile grew by the trick
  const fresh = v.log.slice(Math.max(0, before.logEnd - v.log_start));
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

function renderTrick(v, places) {
  const trick = $('trick');
  const area = v.areas.find((a) => heldTrick && a.name === heldTrick.name);
  if (heldTrick && area && area.cards && area.cards.length
      && Date.now() - heldTrick.since >= HOLD) heldTrick = null;     // the next trick is led
  const shown = heldTrick || trickArea(v);
  trick.replaceChildren();
  trick.hidden = !shown;
  trick.classList.toggle('taken', !!heldTrick);
  if (!shown) return;
  shown.cards.forEach((c, i) => {
    const e = card(c);
    e.classList.add('played', 'at-' + (places[shown.by[i]] || 'b'));
    e.title = c + ', played by ' + nameOf(v, shown.by[i]);
    trick.append(e);
  });
  if (heldTrick && heldTrick.winner) trick.append(el('p', 'taker', heldTrick.winner + ' takes the trick'));
  // once the pause is over, a next card already led replaces the trick
  const left = heldTrick ? heldTrick.since + HOLD - Date.now() : 0;
  if (left > 0 && !holdTimer) {
    holdTimer = setTimeout(() => { holdTimer = null; if (view) renderTable(view); }, left + 20);
  }
}

// What the table says in its messages and shows nowhere else: trump, and
// the card turned up (the last message that names them).
const SUIT_WORD = /\b(Spades|Hearts|Diamonds|Clubs)\b/;
const CARD_NAME = /\b(Ace|Two|Three|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King) of (Spades|Hearts|Diamonds|Clubs)\b/;

let trump = null;         // kept while the messages that named them scroll out of the log
let up = null;

function renderInfo(v) {
  for (const e of v.log) {
    if (e.kind !== 'message' && e.kind !== 'show') continue;
    if (/trump/i.test(e.text) && SUIT_WORD.test(e.text) && !/\bno trump/i.test(e.text)) {
      trump = (/trumps? (?:is|are) (\w+)/i.exec(e.text) || /(\w+) (?:is|are) trumps?/i.exec(e.text)
               || [])[1];
      if (!(trump in SUITS)) trump = SUIT_WORD.exec(e.text.replace(CARD_NAME, ''))?.[1] || null;
    }
    if (/turn(?:s|ed)? up/i.test(e.text) && CARD_NAME.test(e.text)) up = CARD_NAME.exec(e.text)[0];
  }
  const box = $('info');
  const parts = [];
  if (trump) {
    const t = el('span', 'trump' + (trump === 'Hearts' || trump === 'Diamonds' ? ' red' : ''));
    t.append('Trump ', el('strong', 'suit', SUITS[trump] + ' ' + trump));
    parts.push(t);
  }
  if (up) {
    const u = el('span', 'up');
    u.append('Turned up ', card(up));
    parts.push(u);
  }
  box.replaceChildren(...parts);
  box.hidden = parts.length === 0;
}

// An ask whose options come from lists of cards or areas names them
// (decision.targets): such an option is chosen by clicking its card, where
// the table shows it, or its area; so a move is its card, then where it goes.
function targetOf(v, kind, name) {
  const d = v.decision;
  return d && d.targets ? d.targets.findIndex((t) => t !== null && t[kind] === name) : -1;
}

function clickable(e, i) {
  if (i < 0) return e;
  e.classList.add('target');
  e.dataset.target = i;
  e.tabIndex = 0;
  e.setAttribute('role', 'button');
  e.addEventListener('click', (event) => { event.stopPropagation(); choose(i); });
  e.addEventListener('keydown', (event) => { if (event.key === 'Enter') choose(i); });
  return e;
}

function tableCard(v, name) {
  return clickable(card(name), targetOf(v, 'card', name));
}

// The areas as the program declares them: facedown as a back with a count,
// squaredup as a pile showing its top card, spreadout fanned; then every
// card list in no area (a deck) as a face-down pile with its size.
function renderAreas(v) {
  const shown = trickArea(v);
  const held = heldTrick && heldTrick.name;        // drawn as the trick above
  const boxes = v.areas.filter((a) => a !== shown && a.name !== held).map((a) => {
    const kind = a.facedown ? 'facedown' : 'faceup';
    const box = clickable(el('div', 'area ' + kind + (a.squaredup ? ' squaredup' : ' spreadout')),
                          targetOf(v, 'area', a.name));
    box.append(el('h2', '', a.name));
    const cards = el('div', 'cards');
    if (a.facedown && a.squaredup) {
      if (a.size) cards.append(back(String(a.size)));
    } else if (a.facedown) {
      cards.classList.add('fan');
      for (let i = 0; i < Math.min(a.size, 13); i++) cards.append(back(''));
    } else if (a.squaredup) {
      cards.classList.add('pile');
      if (a.cards.length) cards.append(tableCard(v, a.cards[0]));
    } else {
      cards.classList.add('fan');
      cards.append(...a.cards.map((c) => tableCard(v, c)));
    }
    box.append(cards, el('p', 'count', a.size ? plural(a.size, 'card') : 'empty'));
    return box;
  });
  for (const list of v.lists) {
    const box = el('div', 'area list');
    box.append(el('h2', '', list.name));
    const cards = el('div', 'cards pile');
    if (list.size) cards.append(back(String(list.size)));
    box.append(cards, el('p', 'count', list.size ? plural(list.size, 'card') : 'empty'));
    boxes.push(box);
  }
  $('areas').replaceChildren(...boxes);
}

// Scores and what each team or player has won (its stash); in a game with a
// trick, a stash of whole tricks is counted in tricks too.
function standings(v, which = 'both') {
  const rows = [];
  const perTrick = trickArea(v) || heldTrick || v.areas.some((a) => /trick/i.test(a.name))
    ? v.players.length : 0;
  const won = (n) => n === 0 ? '\u2013' : perTrick && n % perTrick === 0
    ? plural(n / perTrick, 'trick') : plural(n, 'card');
  if (v.teams && which !== 'players') {
    v.teams.forEach((t, i) => {
      const names = t.members.map((s) => nameOf(v, s)).join(', ');
      const values = valueFacts(t.values).map((f) => ' \u00b7 ' + f).join('');
      rows.push({ who: 'Team ' + (i + 1) + ' (' + names + ')' + values, name: t.name, score: t.score,
                  won: won(t.stash_size), mine: t.members.includes(v.seat) });
    });
  }
  if (which === 'teams') return rows;
  for (const p of v.players) {
    if (v.teams && which === 'both' && !p.score && !p.stash_size) continue;   // a team game scores teams
    rows.push({ who: p.name, name: p.name, score: p.score, won: won(p.stash_size),
                mine: p.seat === v.seat, seat: p.seat });
  }
  return rows;
}

function renderScores(v) {
  const rows = standings(v).map((r) => [r.who, r.score, r.won, r.mine]);
  $('scores').hidden = rows.length === 0;
  $('scores').querySelector('tbody').replaceChildren(...rows.map(([who, score, got, mine]) => {
    const tr = el('tr', mine ? 'mine' : '');
    tr.append(el('th', '', who), el('td', '', score === null ? '\u2013' : String(score)),
              el('td', '', got));
    tr.firstChild.scope = 'row';
    return tr;
  }));
}

// The option each card of the hand stands for (-1: none now).
function handChoices(v, me) {
  const d = v.decision;
  const hand = me && me.hand ? me.hand : [];
  const choice = hand.map(() => -1);
  if (d && d.kind === 'card') {
    d.options.forEach((label, i) => {
      const at = hand.findIndex((c, j) => c === label && choice[j] < 0);
      if (at >= 0) choice[at] = i;
    });
  }
  return choice;
}

function keyOf(i) { return i < KEYS.length ? KEYS[i] : ''; }

// The hand: on a card decision the cards that may be played are raised and
// clicked to play; the others are dimmed.
function renderHand(v, me) {
  $('you').hidden = !me;
  if (!me) return;
  const d = v.decision;
  const choice = handChoices(v, me);
  const deciding = d && d.kind === 'card';
  $('hand-title').textContent = 'Your hand (' + plural(me.hand.length, 'card') + ')';
  const cards = me.hand.map((c, j) => {
    const i = choice[j];
    if (!deciding) return tableCard(v, c);
    const b = card(c, 'button');
    b.type = 'button';
    if (i < 0) {
      b.classList.add('dim');
      b.disabled = true;
    } else {
      b.classList.add('legal');
      b.dataset.choice = i;
      if (keyOf(i)) b.append(el('span', 'key', keyOf(i)));
      b.addEventListener('click', () => choose(i));
    }
    return b;
  });
  $('hand').classList.toggle('deciding', !!deciding);
  $('hand').replaceChildren(...cards);
}

let shownDecision = null;     // the decision whose controls are on the page

function renderDecision(v) {
  const d = v.decision;
  const box = $('decision');
  if (!d) { box.hidden = true; shownDecision = null; return; }
  box.hidden = false;
  $('prompt').textContent = d.prompt;
  const form = $('name-form');
  form.hidden = d.kind !== 'name';
  // The options that are no card of the hand: actions, or cards elsewhere.
  const inHand = new Set(handChoices(v, v.players.find((p) => p.seat === v.seat)));
  const buttons = [];
  d.options.forEach((label, i) => {
    if (inHand.has(i)) return;
    const b = d.kind === 'card' ? card(label, 'button')
      : d.kind === 'cards' ? cardSet(label) : el('button', 'option', label);
    b.type = 'button';
    b.dataset.choice = i;
    if (keyOf(i)) b.append(el('span', 'key', keyOf(i)));
    b.addEventListener('click', () => choose(i));
    buttons.push(b);
  });
  $('options').replaceChildren(...buttons);
  $('options').hidden = buttons.length === 0;
  if (shownDecision === d.id) return;       // keep focus where it is
  shownDecision = d.id;
  if (d.kind === 'name') { $('name').value = ''; $('name').focus(); }
  else { const first = choices()[0]; if (first) first.focus({ preventScroll: true }); }
}

function renderProblem() {
  $('problem').textContent = problem;
  $('problem').hidden = !problem;
}

// The hand the game prints to its player before each card it asks for
// ("Ada: Your hand:", then "Ada:   Nine of Spades" a line): the page shows
// the hand itself, so these lines are left out of the messages.
function handListing(events) {
  const out = new Set();
  let inHand = false;
  events.forEach((e, i) => {
    const mine = e.kind === 'message' && e.to !== null;
    if (mine && /: Your hand:$/.test(e.text)) inHand = true;
    else if (!(inHand && mine && /^[^:]*: {3}\S/.test(e.text))) inHand = false;
    if (inHand) out.add(i);
  });
  return out;
}

function renderLog(v) {
  const log = $('log');
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  const hidden = handListing(v.log);
  log.replaceChildren(...v.log.filter((e, i) => !hidden.has(i)).map((e) => {
    // The banner's rules of dashes are cut at the pane's edge, not wrapped.
    const rule = /^-{8,}$/.test(e.text) ? ' rule' : '';
    return el('li', e.kind + (e.to !== null ? ' to-me' : '') + rule, e.text || '\u00a0');
  }));
  $('earlier').hidden = !(v.log_start > 0);
  if (atEnd) log.scrollTop = log.scrollHeight;
}

// Every control that answers the decision, in the order of its options.
function choices() {
  return [...document.querySelectorAll('[data-choice]')]
    .sort((a, b) => a.dataset.choice - b.dataset.choice);
}

function choose(i) {
  if (view && view.decision) send({ decision: view.decision.id, choice: i });
}

async function send(body) {
  if (answering === body.decision) return;
  answering = body.decision;
  problem = '';
  renderProblem();
  for (const b of document.querySelectorAll('#decision button, #hand button')) b.disabled = true;
  try {
    // Pip-Base: the version this page holds; the reply is then a patch from it
    const r = await fetch('answer', {
      method: 'POST', body: JSON.stringify(body),
      headers: { 'Content-Type': 'application/json', 'Pip-Base': String(version) },
    });
    const reply = await r.json();
    if (r.ok) { update(reply, versionOf(r)); return; }
    // 400: refused, and it stays on the page until the next action;
    // 409: the game moved on (show where it is).
    problem = r.status === 409 ? 'The game has moved on: ' + reply.error + '.' : reply.error;
    shownDecision = null;
    await refresh();
  } catch (err) {
    problem = 'The server cannot be reached; trying again.';
  } finally {
    if (answering === body.decision) answering = null;
    renderProblem();
    for (const b of document.querySelectorAll('#decision button')) b.disabled = false;
    if (view) { renderHand(view, view.players.find((p) => p.seat === view.seat)); renderDecision(view); }
  }
}

function versionOf(response) {
  return Number(response.headers.get('Pip-Version'));
}

async function refresh() {
  const r = await fetch('state', { cache: 'no-store' });
  if (r.ok) render(await r.json(), versionOf(r));
  else $('link').textContent = r.status === 404 ? 'No such seat: this link is not (or no longer) one of this table\u2019s.' : 'Error ' + r.status;
}

// RFC 6902, the three operations the server sends (pipvm/web/patch.py).
function applyPatch(doc, ops) {
  for (const op of ops) {
    const keys = op.path.split('/').slice(1).map((k) => k.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (!keys.length) { doc = op.value; continue; }
    let parent = doc;
    for (const k of keys.slice(0, -1)) parent = parent[Array.isArray(parent) ? Number(k) : k];
    const last = keys[keys.length - 1];
    if (Array.isArray(parent)) {
      if (op.op === 'add' && last === '-') parent.push(op.value);
      else if (op.op === 'remove') parent.splice(Number(last), 1);
      else parent[Number(last)] = op.value;
    } else if (op.op === 'remove') delete parent[last];
    else parent[last] = op.value;
  }
  return doc;
}

// A message of the server: a whole view, or a patch from version base (the
// live channel's, an answer's reply).  A patch from a view this page does
// not hold is not applied: one already applied (the same change came the
// other way first) is dropped, one from a view missed fetches the whole.
function update(message, at) {
  if (!message.patch) render(message, at);
  else if (view && message.base === version) render(applyPatch(view, message.patch), message.version);
  else if (message.version > version) refresh().catch(() => {});
}

// The live channel: the whole view first, then patches to it; a patch to a
// view this page does not hold (it missed one) fetches the whole view again.
function connect(delay = 500) {
  const url = new URL('live', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const who = new URLSearchParams(location.search).get('name');
  if (who) url.searchParams.set('name', who);      // a spectator's name, for the lobby's list
  const ws = new WebSocket(url);
  ws.onopen = () => { linkState = 'open'; renderLink(); delay = 500; };
  ws.onmessage = (m) => { const live = JSON.parse(m.data); update(live.view || live, live.version); };
  ws.onclose = () => {
    linkState = 'closed';
    renderLink();
    if (view && view.ending) return;
    setTimeout(() => { refresh().catch(() => {}); connect(Math.min(delay * 2, 8000)); }, delay);
  };
}

document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
  const d = view && view.decision;
  if (!d || d.kind === 'name') return;
  const all = choices();
  if (e.key === 'ArrowLeft' || e.key === 'ArrowRight' || e.key === 'ArrowUp' || e.key === 'ArrowDown') {
    e.preventDefault();
    const at = all.indexOf(document.activeElement);
    const step = e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 1;
    // with no option focused yet, left starts from the last and right from the first
    const next = all[at < 0 ? (step < 0 ? all.length - 1 : 0) : (at + step + all.length) % all.length];
    if (next) next.focus();
    return;
  }
  const i = KEYS.indexOf(e.key.toLowerCase());
  if (e.key.length === 1 && i >= 0 && i < d.options.length) {
    e.preventDefault();
    choose(i);
  }
});

$('name-form').addEventListener('submit', (e) => {
  e.preventDefault();
  const name = $('name').value.trim();
  if (!name) { problem = 'Please type a name.'; renderProblem(); return; }
  if (view && view.decision) send({ decision: view.decision.id, text: name });
});

$('earlier').addEventListener('click', async () => {
  if (!view || !(view.log_start > 0)) return;
  const r = await fetch('log?before=' + view.log_start, { cache: 'no-store' });
  if (!r.ok) return;
  const page = await r.json();
  view.log = page.log.concat(view.log);
  view.log_start = page.start;
  const log = $('log');
  const from = log.scrollHeight - log.scrollTop;
  renderLog(view);
  log.scrollTop = log.scrollHeight - from;
});

$('see-table').addEventListener('click', () => { resultSeen = true; $('result').hidden = true; });

// The same seats at a new deal: the server gives this seat its link there.
$('rematch').addEventListener('click', async () => {
  const r = await fetch('rematch', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}',
  });
  const reply = await r.json();
  if (r.ok) location.assign(reply.link);
  else { problem = reply.error; renderProblem(); }
});

refresh().catch(() => {}).finally(() => connect());
