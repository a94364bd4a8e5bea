// The page of one seat (or of the spectators) at a served Pip table.
// Every text from the program is set with textContent, never as markup.
// State comes from GET state and the live WebSocket (the same view each);
// answers go by POST answer.  docs/web.md describes the API.
'use strict';

const SUITS = { Spades: '\u2660', Hearts: '\u2665', Diamonds: '\u2666', Clubs: '\u2663' };
const RANKS = { Ace: 'A', Two: '2', Three: '3', Four: '4', Five: '5', Six: '6', Seven: '7',
                Eight: '8', Nine: '9', Ten: '10', Jack: 'J', Queen: 'Q', King: 'K' };
const $ = (id) => document.getElementById(id);
let view = null;          // the last view received
let version = -1;         // the table's version it shows (a late older view is ignored)
let shown = null;         // the id of the decision whose buttons are shown
let sending = false;

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

function back(count) {
  const e = el('span', 'card back', String(count));
  e.setAttribute('aria-label', count + ' cards face down');
  return e;
}

function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

function render(v, at) {
  if (at < version) return;
  version = at;
  view = v;
  document.title = v.game + ' \u2014 Pip';
  $('game').textContent = v.game;
  const me = v.players.find((p) => p.seat === v.seat);
  renderTurn(v);
  renderPlayers(v);
  renderAreas(v);
  $('you').hidden = v.seat === null;
  const hand = $('hand');
  hand.replaceChildren(...(me && me.hand ? me.hand.map((c) => card(c)) : []));
  renderDecision(v.decision);
  renderLog(v);
}

function renderTurn(v) {
  const turn = $('turn');
  turn.className = '';
  if (v.ending) {
    turn.className = 'ending';
    const e = v.ending;
    turn.textContent = e.kind === 'winner' ? 'The game was won by ' + e.winner
      : e.kind === 'no winner' ? 'The game is over: no winner.' : 'The game stopped: ' + e.error;
  } else if (v.decision) {
    turn.textContent = 'Your turn';
  } else if (v.turn) {
    turn.textContent = 'Waiting for ' + (v.turn.player || 'player ' + (v.turn.seat + 1));
  } else {
    turn.textContent = '';
  }
  if (v.seat === null) turn.textContent += ' (watching)';
}

function renderPlayers(v) {
  const items = v.players.map((p) => {
    const li = el('li');
    li.append(el('strong', '', p.name), ' \u00b7 ' + plural(p.hand_size, 'card'));
    if (p.score !== null) li.append(' \u00b7 score ' + p.score);
    if (v.teams) {
      const t = v.teams.findIndex((team) => team.members.includes(p.seat));
      if (t >= 0) li.append(' \u00b7 team ' + (t + 1));
    }
    if (p.seat === v.seat) { li.classList.add('me'); li.append(' (you)'); }
    if (v.turn && v.turn.seat === p.seat && !v.ending) li.classList.add('turn');
    return li;
  });
  $('players').firstElementChild.replaceChildren(...items);
}

// As the program declares them: facedown as a back with a count, squaredup
// as a pile showing its top card, spreadout fanned.
function renderAreas(v) {
  const boxes = v.areas.map((a) => {
    const box = el('div', 'area');
    box.append(el('h2', '', a.name));
    const cards = el('div', 'cards');
    if (a.facedown) {
      if (a.size) cards.append(back(a.size));
    } else if (a.squaredup) {
      cards.classList.add('pile');
      if (a.cards.length) cards.append(card(a.cards[0]));
    } else {
      cards.classList.add('fan');
      cards.append(...a.cards.map((c) => card(c)));
    }
    box.append(cards, el('p', 'count', a.size ? plural(a.size, 'card') : 'empty'));
    return box;
  });
  $('areas').replaceChildren(...boxes);
}

function renderDecision(d) {
  const box = $('decision');
  if (!d) { box.hidden = true; shown = null; return; }
  if (shown === d.id) return;              // keep focus where it is
  shown = d.id;
  box.hidden = false;
  $('prompt').textContent = d.prompt;
  $('problem').textContent = '';
  const form = $('name-form');
  form.hidden = d.kind !== 'name';
  const buttons = d.options.map((label, i) => {
    const b = d.kind === 'card' ? card(label, 'button') : el('button', '', label);
    b.type = 'button';
    if (i < 9) b.append(el('span', 'key', String(i + 1)));
    b.addEventListener('click', () => send({ decision: d.id, choice: i }));
    return b;
  });
  $('options').replaceChildren(...buttons);
  if (d.kind === 'name') { $('name').value = ''; $('name').focus(); }
  else if (buttons.length) buttons[0].focus();
}

function renderLog(v) {
  const log = $('log');
  const atEnd = log.scrollHeight - log.scrollTop - log.clientHeight < 40;
  log.replaceChildren(...v.log.map((e) => {
    const li = el('li', e.kind + (e.to !== null ? ' to-me' : ''), e.text || '\u00a0');
    return li;
  }));
  if (atEnd) log.scrollTop = log.scrollHeight;
}

async function send(body) {
  if (sending) return;
  sending = true;
  for (const b of document.querySelectorAll('#decision button')) b.disabled = true;
  try {
    const r = await fetch('answer', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    const reply = await r.json();
    if (r.ok) { render(reply, versionOf(r)); return; }
    if (r.status === 400) $('problem').textContent = reply.error;
    shown = null;                          // 409: the game moved on; show where it is
    await refresh();
  } catch (err) {
    $('problem').textContent = 'The server cannot be reached; trying again.';
  } finally {
    sending = false;
    for (const b of document.querySelectorAll('#decision button')) b.disabled = false;
  }
}

function versionOf(response) {
  return Number(response.headers.get('Pip-Version'));
}

async function refresh() {
  const r = await fetch('state', { cache: 'no-store' });
  if (r.ok) render(await r.json(), versionOf(r));
  else $('link').textContent = r.status === 404 ? 'No such seat.' : 'Error ' + r.status;
}

// The live channel: each message is the whole view, so a reload or a lost
// connection loses nothing; it reconnects until the page is closed.
function connect(delay = 500) {
  const url = new URL('live', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const ws = new WebSocket(url);
  ws.onopen = () => { $('link').textContent = 'connected'; delay = 500; };
  ws.onmessage = (m) => { const live = JSON.parse(m.data); render(live.view, live.version); };
  ws.onclose = () => {
    $('link').textContent = view && view.ending ? 'game over' : 'reconnecting\u2026';
    if (view && view.ending) return;
    setTimeout(() => { refresh().catch(() => {}); connect(Math.min(delay * 2, 8000)); }, delay);
  };
}

document.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.ctrlKey || e.metaKey || e.altKey) return;
  const d = view && view.decision;
  const n = Number(e.key);
  if (d && d.kind !== 'name' && Number.isInteger(n) && n >= 1 && n <= Math.min(9, d.options.length)) {
    e.preventDefault();
    send({ decision: d.id, choice: n - 1 });
  }
});

$('name-form').addEventListener('submit', (e) => {
  e.preventDefault();
  if (view && view.decision) send({ decision: view.decision.id, text: $('name').value });
});

refresh().catch(() => {}).finally(() => connect());
