// Cards and the small pieces of the page drawn from the program's text.
// Every text from the program is set with textContent, never as markup.

export const SUITS = { Spades: '\u2660', Hearts: '\u2665', Diamonds: '\u2666', Clubs: '\u2663' };
export const RANKS = { Ace: 'A', Two: '2', Three: '3', Four: '4', Five: '5', Six: '6', Seven: '7',
                       Eight: '8', Nine: '9', Ten: '10', Jack: 'J', Queen: 'Q', King: 'K' };

export const $ = (id) => document.getElementById(id);

export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

// A card drawn from its name ("Queen of Spades"); anything else as plain text.
export function card(name, tag = 'span') {
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
export function cardSet(label) {
  const b = el('button', 'option set');
  b.title = label;
  b.setAttribute('aria-label', label);
  const names = label.split(/, | and /);
  if (!names.every((n) => n.split(' of ')[0] in RANKS)) b.textContent = label;
  else names.forEach((n) => b.append(card(n)));
  return b;
}

export function back(label) {
  const e = el('span', 'card back', label);
  e.setAttribute('aria-hidden', 'true');
  return e;
}

export function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }

export function nameOf(v, seat) {
  const p = v.players.find((q) => q.seat === seat);
  return p ? p.name : 'seat ' + (seat + 1);
}
