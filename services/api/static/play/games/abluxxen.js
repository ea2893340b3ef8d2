// Abluxxen at the table: the display and the draw pile in the middle, each player's
// top row in front of them, your hand. Select a row of one number to play; abluxx the
// rows it may steal; an attacked player chooses "take back" or "give up"; the draw
// back to 13 takes display cards first. Rules: docs/rules/abluxxen.md.
import { backs, card, cardRow, counted, el, sameCards } from "../cards.js";

export const title = "Abluxxen";
export const preset = { turn_seconds: 120 };

// The numbers' colours are cosmetic in the game; each gets a symbol too, by its value.
const TONES = ["grey", "blue", "green", "pink", "orange", "teal", "purple", "red"];
const SYMBOLS = ["", "●", "▲", "■", "◆", "★", "⬟", "✚", "⬢", "✱", "▼", "◐", "♠", "♥"];

export const cardLabel = (code) => (code === "X" ? "joker" : code);
const face = (code) => (code === "X"
  ? { index: "X", symbol: "✦", tone: "joker" }
  : { index: code, symbol: SYMBOLS[Number(code)], tone: TONES[Number(code) % TONES.length] });

/** "two 7s", "a 9", "three jokers (14)": a row as people say it. */
export function rowWords(cards, value) {
  const n = cards.length;
  if (Number(value) === 14) return `${counted(n)} joker${n > 1 ? "s" : ""} (14)`;
  if (n === 1) return `${["8", "11"].includes(String(value)) ? "an" : "a"} ${value}`;
  return `${counted(n)} ${value}s`;
}

export function selectionBasis(view) {
  const s = view.state ?? {};
  return JSON.stringify([s.phase, s.hand, s.display, view.to_act]);
}

export function board(view, ui) {
  const others = view.seats.filter((seat) => seat.seat !== ui.me).map((seat) => seatBox(view, ui, seat.seat));
  const parts = [el("div", "others", ...others), middle(view, ui)];
  if (ui.me !== null && ui.me !== undefined && view.state.hand) parts.push(mine(view, ui));
  return el("div", "board", ...parts);
}

function row(view, seat, whose) {
  const place = view.state.seats[seat];
  if (!place.top_row) return el("p", "muted", "no row to attack");
  const cards = place.top_row.map((c) => card({ face: face(c), label: cardLabel(c), small: true }));
  return el("div", "", cardRow(cards, `${whose} top row, worth ${place.top_row_value}`),
    el("p", "muted", `top row: ${rowWords(place.top_row, place.top_row_value)}, ${place.covered_count} under it`));
}

function seatBox(view, ui, seat) {
  const s = view.state;
  const place = s.seats[seat];
  const acting = view.to_act.includes(seat);
  return el("section", `seat${acting ? " acting" : ""}${s.attack?.target === seat ? " attacked" : ""}`,
    el("h3", "", ui.name(seat), acting ? el("span", "badge turn", "to act") : null,
      s.attack?.target === seat ? el("span", "badge", "abluxxed!") : null),
    el("p", "facts", backs(place.hand_count, `${place.hand_count} cards in hand`),
      el("span", "", `${place.front_count} in front · ${place.scoring_pile_count} won · score ${place.score}`)),
    row(view, seat, `${ui.name(seat)}'s`));
}

function middle(view, ui) {
  const s = view.state;
  const drawing = s.draw?.seat === ui.me && view.to_act.includes(ui.me) && !ui.readonly;
  const display = s.display.map((code, i) => card({
    face: face(code), label: `display: ${cardLabel(code)}`,
    pick: drawing ? { key: `d${i}`, selected: ui.selected.has(`d${i}`), onToggle: (k) => ui.toggle(k) } : null,
  }));
  let say = "";
  if (s.attack) {
    const a = s.attack;
    say = a.target === null || a.target === undefined
      ? `${ui.name(a.seat)} played ${rowWords(a.row, a.value)} and may abluxx ${a.targets.map(ui.name).join(", ") || "nobody"}.`
      : `${ui.name(a.seat)} abluxxes ${ui.name(a.target)}'s row with ${rowWords(a.row, a.value)}.`;
  } else if (s.draw) {
    say = `${ui.name(s.draw.seat)} draws ${s.draw.count}` +
      (s.draw.source === "display_first" ? ", display first." : s.draw.source === "pile" ? " from the draw pile." : ".");
  } else if (s.phase === "play") {
    say = `${ui.name(s.turn)} plays a row.`;
  } else if (s.phase === "over") {
    say = "The game is over.";
  }
  return el("div", "middle", el("div", "", el("p", "pile", "Display"), cardRow(display, "display")),
    el("p", "say", say),
    el("p", "pile", `draw pile ${s.draw_pile_count}${s.published ? ` · discard pile ${s.discard_pile_count}` : ""}`));
}

function mine(view, ui) {
  const s = view.state;
  const me = ui.me;
  const playing = s.phase === "play" && view.to_act.includes(me) && !ui.readonly;
  const hand = s.hand.map((code, i) => card({
    face: face(code), label: cardLabel(code),
    pick: playing ? { key: `h${i}`, selected: ui.selected.has(`h${i}`), onToggle: (k) => ui.toggle(k) } : null,
  }));
  const place = s.seats[me];
  return el("section", `me${view.to_act.includes(me) ? " acting" : ""}`,
    el("h3", "", `${ui.name(me)} (you) · score ${place.score}`),
    row(view, me, "your"), cardRow(hand, `your hand, ${s.hand.length} cards`));
}

export function privateCards(state) {
  return cardRow((state.hand ?? []).map((c) => card({ face: face(c), label: cardLabel(c), small: true })), "hand");
}

// --- what the selection allows

export function actions(view, ui) {
  const s = view.state;
  const legal = view.legal;
  if (!legal.length) return { why: "" };
  const picked = (prefix, cards) => [...ui.selected].filter((k) => k[0] === prefix).map((k) => cards[Number(k.slice(1))]);
  switch (s.phase) {
    case "play": {
      const cards = picked("h", s.hand);
      const command = legal.find((c) => c.type === "play" && sameCards(c.cards, cards));
      const why = !cards.length ? "Select the cards of one number to lay as your new row (jokers join any)."
        : command ? "" : "A row is cards of one number; jokers take the row's number.";
      return { buttons: [{ id: "play", label: cards.length ? `Play ${rowWords(cards, rowValue(cards))}` : "Play a row", command, kind: "primary" }], why };
    }
    case "attack": {
      const buttons = legal.map((c) => (c.type === "attack"
        ? { id: `attack-${c.target}`, label: `Abluxx ${ui.name(c.target)}'s row`, command: c, kind: "primary" }
        : { id: "stop", label: "Stop attacking", command: c }));
      return { buttons, why: "Steal a row of as many cards and an equal or lower value, or stop." };
    }
    case "answer": {
      const a = s.attack;
      const words = { take_back: "Take back into my hand", give_up: "Give up (draw as many)", discard: "Discard (draw as many)" };
      const buttons = legal.map((c) => ({ id: c.choice, label: words[c.choice] ?? c.choice, command: c, kind: "primary" }));
      const to = s.published ? "the discard pile" : `${ui.name(a.seat)}'s scoring pile`;
      return { buttons, why: `${ui.name(a.seat)} abluxxes your row: take it back into your hand, or give it up to ${to} and draw as many.` };
    }
    case "keep": {
      const words = { true: "Keep the row (into my hand)", false: "Leave it to its owner" };
      return { buttons: legal.map((c) => ({ id: `keep-${c.take}`, label: words[c.take], command: c, kind: "primary" })) };
    }
    case "draw": {
      const cards = picked("d", s.display);
      const command = legal.find((c) => c.type === "draw" && sameCards(c.display, cards));
      const fewest = Math.min(...legal.map((c) => c.display.length));
      const why = command ? "" : s.draw.source === "display_first"
        ? `Display first: take ${fewest} card${fewest > 1 ? "s" : ""} from the display.` : "Choose which display cards to take.";
      const fromPile = s.draw.count - cards.length;
      const label = `Draw${cards.length ? ` ${cards.map(cardLabel).join(", ")}` : ""}${fromPile > 0 ? ` + ${fromPile} from the pile` : ""}`;
      return { buttons: [{ id: "draw", label, command, kind: "primary" }], why };
    }
    default:
      return { why: "" };
  }
}

function rowValue(cards) {
  const numbers = cards.filter((c) => c !== "X");
  return numbers.length ? numbers[0] : 14;
}

// --- the log

export function line(event, name, me) {
  const who = name(event.seat);
  switch (event.type) {
    case "dealt":
      return `13 cards each, 6 in the display; ${name(event.starting_seat)} starts.`;
    case "played":
      return `${who} played ${rowWords(event.cards, event.value)}.`;
    case "attacked":
      return `${who} abluxxes ${name(event.target)}'s ${rowWords(event.cards, event.value)}!`;
    case "stopped":
      return `${who} stops attacking.`;
    case "kept":
      return `${who} keeps ${name(event.target)}'s row.`;
    case "declined":
      return `${who} leaves ${name(event.target)} their row.`;
    case "taken_back":
      return `${who} took their row back.`;
    case "given_up":
      return `${who} gave up their row to ${name(event.to)}.`;
    case "discarded":
      return `${who} discarded their row.`;
    case "drew": {
      // "took the 3 from the display": a card's number never reads as a count.
      const one = event.display.length === 1 ? "the " : "";
      const display = event.display.length ? `took ${one}${event.display.map(cardLabel).join(", ")} from the display` : "";
      const mine = event.seat === me && event.pile?.length ? ` (${event.pile.map(cardLabel).join(", ")})` : "";
      const pile = event.pile_count ? `drew ${event.pile_count} from the pile${mine}` : "";
      return `${who} ${[display, pile].filter(Boolean).join(" and ") || "drew nothing"}.`;
    }
    case "turn":
      return `${who}'s turn.`;
    default:
      return null;
  }
}
