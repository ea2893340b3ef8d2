// Cards drawn with CSS: a face (a corner index, a big middle symbol, a colour) or a
// back. Colour is never the only sign: every suit also has its own symbol and its name
// in the card's label. A card the player may pick is a toggle button (aria-pressed);
// any other card is an image with a label.

/**
 * One card. `face`: {index, symbol, tone, mark?} or null for a face-down card;
 * `label`: what a screen reader says; `pick`: {key, selected, onToggle} makes it a
 * toggle button; `small`: a card on the table rather than in hand.
 */
export function card({ face, label, pick, small = false, note }) {
  const element = document.createElement(pick ? "button" : "span");
  element.className = `card${face ? ` tone-${face.tone}` : " back"}${small ? " small" : ""}`;
  element.setAttribute("aria-label", label);
  if (pick) {
    element.type = "button";
    element.dataset.key = pick.key;
    element.setAttribute("aria-pressed", pick.selected ? "true" : "false");
    element.onclick = () => pick.onToggle(pick.key);
  } else {
    element.setAttribute("role", "img");
  }
  if (face) {
    element.append(part("index", face.index), part("symbol", face.symbol));
    if (face.mark) element.append(part("mark", face.mark));
  }
  if (note) element.append(part("note", note));
  return element;
}

// The card's printed text is drawn by CSS (`content: attr(data-text)`): the card's
// label is its one name, for a screen reader and for voice control alike.
function part(name, text) {
  const span = document.createElement("span");
  span.className = name;
  span.setAttribute("aria-hidden", "true");
  span.dataset.text = text;
  return span;
}

/** A row of cards, e.g. a hand or the cards on the table. */
export function cardRow(cards, label, className = "") {
  const row = document.createElement("div");
  row.className = `cards ${className}`;
  row.setAttribute("role", "group");
  row.setAttribute("aria-label", label);
  row.append(...cards);
  return row;
}

/** `count` face-down cards, fanned (up to a few, then the number). */
export function backs(count, label) {
  const fan = document.createElement("span");
  fan.className = "fan";
  fan.setAttribute("role", "img");
  fan.setAttribute("aria-label", label);
  for (let i = 0; i < Math.min(count, 6); i += 1) fan.append(part("mini", ""));
  fan.append(part("count", String(count)));
  return fan;
}

/** Two lists of card codes hold the same cards, duplicates counted. */
export function sameCards(a, b) {
  if (a.length !== b.length) return false;
  const left = [...a].sort();
  return [...b].sort().every((code, i) => code === left[i]);
}

/** An element with a class and children: the building block of every table. */
export function el(tag, className, ...children) {
  const element = document.createElement(tag);
  if (className) element.className = className;
  element.append(...children.filter((child) => child !== null && child !== undefined));
  return element;
}

/** A count in words for small numbers, as people say it ("two green 3s"). */
export function counted(n) {
  return ["no", "a", "two", "three", "four", "five", "six", "seven", "eight"][n] ?? String(n);
}
