// The page of one seat (or of the spectators) at a served Pip table.
// Every text from the program is set with textContent, never as markup.
// State comes from GET state, then the live WebSocket: the whole view on
// connecting, a patch to it (RFC 6902) each time the game moves on.
// Answers go by POST answer.  docs/web.md describes the API.
import { $, SUITS, back, card, cardSet, el, nameOf, plural } from './cards.js';
import { closeResult, renderResult, renderScores, valueFacts } from './scores.js';
import { cardDrops, clickable, draggable, handDrops, marked, onGive, targetOf } from './targets.js';
import { held, noteView, renderTrick, trickArea } from './trick.js';

// The key of each option: 1-9, 0, then the letters (every option up to 36;
// the arrow keys and Enter reach all of them).
const KEYS = '1234567890abcdefghijklmnopqrstuvwxyz';
// Where the other seats sit, going round from the left of the page's seat
// (which sits at the bottom), by how many others there are.
const PLACES = [[], ['t'], ['l', 'r'], ['l', 't', 'r'], ['l', 'tl', 'tr', 'r'],
                ['l', 'tl', 't', 'tr', 'r'], ['bl', 'l', 'tl', 'tr', 'r', 'br'],
                ['bl', 'l', 'tl', 't', 'tr', 'r', 'br']];
let view = null;          // the last view, kept up to date by the live patches
let version = -1;         // the table's version it shows (a late older view is ignored)
// The decision whose answer is in flight: a second answer to it is not sent.
// Only that one: the live patch may show the next decision before the reply
// comes, and a key pressed for it must play.
let answering = null;
let problem = '';         // the last refusal: shown until the next action

function render(v, at) {
  if (at < version) return;
  version = at;
  document.body.dataset.version = at;     // the version shown (a test waits for it)
  view = v;
  noteView(v);
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
  marked();
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
  renderTrick(v, places, () => { if (view) { renderTable(view); marked(); } });
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

function tableCard(v, name) {
  return draggable(clickable(card(name), v, targetOf(v, 'card', name)), v, cardDrops(v, name));
}

// The areas as the program declares them: facedown as a back with a count,
// squaredup as a pile showing its top card, spreadout fanned; then every
// card list in no area (a deck) as a face-down pile with its size.
function renderAreas(v) {
  const shown = trickArea(v);
  const taken = held() && held().name;            // drawn as the trick above
  const boxes = v.areas.filter((a) => a !== shown && a.name !== taken).map((a) => {
    const kind = a.facedown ? 'facedown' : 'faceup';
    const box = clickable(el('div', 'area ' + kind + (a.squaredup ? ' squaredup' : ' spreadout')),
                          v, targetOf(v, 'area', a.name));
    box.dataset.area = a.name;                      // where a card may be dropped
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
      draggable(b, v, handDrops(v, i));
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

// Answer decision id with the first choice, the one after it with the next
// (a card dropped on an area: its option, then the area's); each only if
// the page still shows that decision, and none after one refused.
onGive(async (chosen, id) => {
  for (const [k, choice] of chosen.entries()) {
    const d = view && view.decision;
    if (!d || d.id !== id + k || !await send({ decision: d.id, choice })) return;
  }
});

// Send an answer; whether it was taken (the page then shows what followed).
async function send(body) {
  if (answering === body.decision) return false;
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
    if (r.ok) { await update(reply, versionOf(r)); return true; }
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
  return false;
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
// other way first) is dropped, one from a view missed fetches the whole
// (and the promise returned waits for it).
async function update(message, at) {
  if (!message.patch) render(message, at);
  else if (view && message.base === version) render(applyPatch(view, message.patch), message.version);
  else if (message.version > version) await refresh().catch(() => {});
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

$('see-table').addEventListener('click', closeResult);

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
