// The lobby: start a table, join an open one by name, watch any.  Program
// and player text is set with textContent only.  The list refreshes itself.
'use strict';

const $ = (id) => document.getElementById(id);

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function say(text) { $('problem').textContent = text; $('problem').hidden = !text; }

async function post(path, body) {
  say('');
  const r = await fetch(path, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  const reply = await r.json();
  if (!r.ok) { say(reply.error); return null; }
  return reply;
}

function myName() {
  const name = $('name').value.trim();
  if (!name) { say('Type your name first.'); $('name').focus(); return null; }
  localStorage.setItem('pip-name', name);
  return name;
}

async function join(table) {
  const name = myName();
  if (!name) return;
  const reply = await post('/lobby/join', { table, name });
  if (reply) location.assign(reply.link);
}

// A new table with this person at its first seat, in one request: a name
// the server refuses creates no table.
async function start(game, players) {
  const name = myName();
  if (!name) return;
  const reply = await post('/lobby/new', { game, players, name });
  if (reply) location.assign(reply.link);
}

// The seat this browser holds at a table (its seat cookie), taken back
// under the name it was taken with, on the same link.
async function rejoin(t) {
  const reply = await post('/lobby/join', { table: t.id, name: t.names[t.mine] });
  if (reply) location.assign(reply.link);
}

// "Zoe, Ann and 2 others": the named spectators, then how many gave no name.
function spectators(t) {
  const others = t.watchers - t.spectators.length;
  const more = others ? others + (others === 1 ? ' other' : ' others') : '';
  if (!t.spectators.length) return more;
  return t.spectators.join(', ') + (more ? ' and ' + more : '');
}

function render(s) {
  $('game-list').replaceChildren(...s.games.map((g) => {
    const li = el('li');
    li.append(el('strong', '', g.name), el('br'));
    for (const n of g.players) {
      const b = el('button', 'new', 'New table for ' + n);
      b.type = 'button';
      b.addEventListener('click', () => start(g.id, n));
      li.append(b);
    }
    return li;
  }));
  $('tables').replaceChildren(...s.tables.map((t) => {
    const li = el('li');
    li.dataset.table = t.id;
    const seated = t.names.filter((n) => n !== null);
    li.append(el('strong', '', t.game), ' \u00b7 ',
              el('span', t.open ? 'open' : '', t.over ? 'over' + (t.winner ? ': ' + t.winner + ' won' : '')
                : t.open ? 'open: ' + seated.length + ' of ' + t.players + ' seated' : 'playing'));
    li.append(el('div', 'names', seated.length ? seated.join(', ') : 'nobody yet'));
    if (t.mine !== null) {
      const b = el('button', 'rejoin', 'Back to your seat (' + t.names[t.mine] + ')');
      b.type = 'button';
      b.addEventListener('click', () => rejoin(t));
      li.append(b);
    } else if (t.open) {
      const b = el('button', 'join', 'Join');
      b.type = 'button';
      b.addEventListener('click', () => join(t.id));
      li.append(b);
    }
    const a = el('a', 'button watch', 'Watch' + (t.watchers ? ' (' + t.watchers + ' watching)' : ''));
    // A spectator is listed by the name typed above, if any (read at the click).
    const link = () => {
      const me = $('name').value.trim();
      return t.watch + (me ? '?name=' + encodeURIComponent(me) : '');
    };
    a.href = link();
    a.addEventListener('click', () => { a.href = link(); });
    li.append(a);
    if (t.watchers) li.append(el('div', 'spectators', 'watching: ' + spectators(t)));
    return li;
  }));
  if (!s.tables.length) $('tables').append(el('li', '', 'No tables yet: start one.'));
}

async function refresh() {
  try {
    const r = await fetch('/lobby/state', { cache: 'no-store' });
    render(await r.json());
    $('link').textContent = 'up to date';
  } catch (err) {
    $('link').textContent = 'the server cannot be reached; trying again';
  }
}

$('name').value = localStorage.getItem('pip-name') || '';
$('who').addEventListener('submit', (e) => e.preventDefault());
refresh();
setInterval(refresh, 3000);
