// The scores beside the table, and the panel at the end of the game.
import { $, el, nameOf, plural } from './cards.js';
import { held, trickArea } from './trick.js';

// A player's or team's values `for each player` (a language extension), as
// score is shown: "bid 3", a Boolean as the game prints it ("passed True");
// an undefined one is left out.
export function valueFacts(values) {
  const shown = (x) => x === true ? 'True' : x === false ? 'False' : String(x);
  return Object.entries(values || {}).filter(([, x]) => x !== null)
    .map(([name, x]) => name + ' ' + shown(x));
}

// Scores and what each team or player has won (its stash); in a game with a
// trick, a stash of whole tricks is counted in tricks too.
function standings(v, which = 'both') {
  const rows = [];
  const perTrick = trickArea(v) || held() || v.areas.some((a) => /trick/i.test(a.name))
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

export function renderScores(v) {
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

// The end of the game: who won, then every team (or player) by score, with
// what each took; a rematch and the way back to the lobby for a lobby's table.
let resultSeen = false;   // the panel was closed to look at the table

export function closeResult() { resultSeen = true; $('result').hidden = true; }

export function renderResult(v, me) {
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
