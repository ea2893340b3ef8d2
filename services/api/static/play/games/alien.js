// Alien at the table: the face-up table card with the sum and difference it offers,
// every prison, your hand, and a big CAPTURED! button that lights up the moment one of
// your aliens is the sum or the difference; the stacking window's countdown when
// someone shouts. Rules: docs/rules/alien.md.
import { backs, card, cardRow, el } from "../cards.js";
import { countdown } from "../countdown.js";

export const title = "Alien";
export const preset = { stack_seconds: 3, turn_seconds: 120 };

const HUNTERS = {
  H1: "takes a random card from a player's hand",
  H2: "brings an alien from a prison into your hand",
  H3: "moves an alien from a prison into yours",
};

const pair = (code) => [Number(code[1]), Number(code[2])];

export function cardLabel(code) {
  if (code[0] === "C") return `clue card, aliens ${pair(code).join(" and ")}`;
  if (code[0] === "A") return `CAPTURED card, alien ${code.slice(1)}`;
  return `bounty hunter ${code[1]}`;
}

function face(code) {
  if (code[0] === "C") return { index: "clue", symbol: pair(code).join("·"), tone: "teal" };
  if (code[0] === "A") return { index: `${code[1]}`, symbol: "◉", tone: "red" };
  return { index: `H${code[1]}`, symbol: "◎", tone: "purple" };
}

// Cleared when the hand changes or the turn moves on; a claim coming up does not.
export function selectionBasis(view) {
  const s = view.state ?? {};
  return JSON.stringify([s.hand, s.turn, s.window?.claimant ?? null]);
}

const chosenCard = (view, ui) => {
  const [key] = ui.selected;
  return key === undefined ? null : view.state.hand[Number(key)];
};

export function board(view, ui) {
  const others = view.seats.filter((seat) => seat.seat !== ui.me).map((seat) => seatBox(view, ui, seat.seat));
  const parts = [el("div", "others", ...others), middle(view, ui)];
  if (ui.me !== null && ui.me !== undefined && view.state.hand) parts.push(mine(view, ui));
  return el("div", "board", ...parts);
}

function prison(codes, whose) {
  if (!codes.length) return el("span", "muted", "empty prison");
  return cardRow(codes.map((c) => card({ face: face(c), label: `alien ${c.slice(1)}`, small: true })), `${whose} prison`);
}

function seatBox(view, ui, seat) {
  const s = view.state;
  const acting = s.turn === seat && s.phase === "play";
  return el("section", `seat${acting ? " acting" : ""}`,
    el("h3", "", ui.name(seat), acting ? el("span", "badge turn", "turn") : null,
      s.window?.waiting.includes(seat) ? el("span", "badge", "must stack") : null),
    el("p", "facts", backs(s.hand_counts[seat], `${s.hand_counts[seat]} cards in hand`),
      el("span", "", `${s.prisons[seat].length} of 4 aliens`)),
    prison(s.prisons[seat], `${ui.name(seat)}'s`));
}

function middle(view, ui) {
  const s = view.state;
  const parts = [];
  if (s.table) {
    const [a, b] = pair(s.table);
    parts.push(card({ face: { ...face(s.table), index: "table" }, label: `table card: ${cardLabel(s.table)}` }));
    parts[0].classList.add("big");
    const offer = s.options.no_math ? "No sums or differences (no_math)."
      : s.table_claimed ? `Already captured: ${a}+${b} and ${Math.abs(a - b)} are gone.`
        : `CAPTURED! by ${a}+${b} = ${a + b} or ${Math.max(a, b)}−${Math.min(a, b)} = ${Math.abs(a - b)}`;
    parts.push(el("p", "say", `Match alien ${a} or ${b}. ${offer}`));
  }
  if (s.window) {
    const timer = view.timers.find((t) => t.key.startsWith("window"));
    parts.push(el("p", "say", el("strong", "", `${ui.name(s.window.claimant)} shouted CAPTURED! (alien ${s.window.alien.slice(1)})`),
      ` · still to stack: ${s.window.waiting.map(ui.name).join(", ") || "nobody"} `,
      timer ? countdown(timer.deadline, "time left to stack") : null));
  }
  parts.push(el("p", "pile", `draw pile ${s.draw_pile_count} · played ${s.played_count} · hunters used ${s.used_hunter_count}`));
  return el("div", "middle", ...parts);
}

function mine(view, ui) {
  const s = view.state;
  const me = ui.me;
  const pickable = !ui.readonly && s.phase === "play";
  const hand = s.hand.map((code, i) => card({
    face: face(code), label: cardLabel(code),
    pick: pickable ? { key: String(i), selected: ui.selected.has(String(i)), onToggle: (k) => ui.toggle(k, true) } : null,
  }));
  return el("section", `me${s.turn === me ? " acting" : ""}`,
    el("h3", "", `${ui.name(me)} (you) · ${s.prisons[me].length} of 4 aliens`),
    cardRow(hand, "your hand"), prison(s.prisons[me], "your"));
}

export function privateCards(state) {
  return cardRow((state.hand ?? []).map((c) => card({ face: face(c), label: cardLabel(c), small: true })), "hand");
}

// --- what the selection allows

export function actions(view, ui) {
  const s = view.state;
  const legal = view.legal;
  const code = chosenCard(view, ui);
  const buttons = [];
  const stack = legal.find((c) => c.type === "stack");
  if (stack) return { buttons: [{ id: "stack", label: "Stack!", command: stack, kind: "big" }], why: "Put your hand on the pile!" };
  const claims = legal.filter((c) => c.type === "claim");
  const claim = code ? claims.find((c) => c.card === code) : claims[0];
  buttons.push({ id: "claim", label: "CAPTURED!", command: claim ?? null, kind: "big",
    aria: claim ? `CAPTURED! with alien ${claim.card.slice(1)}` : "CAPTURED!" });
  let why = "";
  if (code && code[0] === "A" && !claim) why = claimWhy(s, code);
  if (s.turn === ui.me && s.phase === "play" && !s.window) {
    if (code?.[0] === "C") {
      const move = legal.find((c) => c.type === "play" && c.card === code);
      buttons.push({ id: "play", label: "Lay this clue", command: move ?? null, kind: "primary",
        why: `That clue shares no alien with the table card ${pair(s.table).join("·")}.` });
    }
    if (code?.[0] === "A") {
      const move = legal.find((c) => c.type === "capture" && c.card === code);
      buttons.push({ id: "capture", label: "Capture by matching", command: move ?? null, kind: "primary" });
      if (!move && !why) why = `The table card shows ${pair(s.table).join(" and ")}, not ${code[1]}.`;
    }
    if (code?.[0] === "H") {
      const hunts = legal.filter((c) => c.type === "hunt" && c.card === code);
      if (!hunts.length) why = `Bounty hunter ${code[1]} ${HUNTERS[code]}: nobody can be hunted now.`;
      hunts.forEach((c, i) => buttons.push({ id: `hunt-${i}`, command: c,
        label: c.alien === undefined || c.alien === null ? `Hunt ${ui.name(c.target)}'s hand`
          : `${code === "H3" ? "Take" : "Hunt"} ${ui.name(c.target)}'s alien ${c.alien}` }));
    }
    legal.filter((c) => c.type === "take").forEach((c, i) => buttons.push({ id: `take-${i}`,
      label: `Take ${ui.name(c.target)}'s alien ${c.alien}`, command: c }));
    const end = legal.find((c) => c.type === "end_turn" || c.type === "pass");
    if (end) buttons.push({ id: end.type, label: end.type === "pass" ? "Pass (draw)" : "End turn (draw up to 5)", command: end });
    if (!code && !why) why = "Your turn: select a card to lay, capture or hunt with; or shout CAPTURED! when you can.";
  } else if (!code && !claim) {
    why = s.phase === "play" ? "Watch the table: shout CAPTURED! when an alien in your hand is the sum or the difference." : "";
  }
  return { buttons, why };
}

function claimWhy(s, code) {
  const k = Number(code[1]);
  const [a, b] = pair(s.table);
  if (s.options.no_math) return "No CAPTURED! in this game (no_math).";
  if (s.table_claimed) return "This table card was already captured.";
  return `Alien ${k} is neither ${a}+${b} = ${a + b} nor ${Math.max(a, b)}−${Math.min(a, b)} = ${Math.abs(a - b)}.`;
}

// --- the log, from the redacted events

export function line(event, name) {
  const who = name(event.seat);
  switch (event.type) {
    case "dealt":
      return "5 cards each are dealt.";
    case "turned_over":
      return event.card[0] === "C" && event.returned_to === null
        ? `The table card is the clue ${pair(event.card).join("·")}.` : null;
    case "turn_began":
      return `${who}'s turn.`;
    case "played":
      return `${who} laid the clue ${pair(event.card).join("·")}.`;
    case "captured":
      return `${who} captured alien ${event.card.slice(1)} by matching.`;
    case "hunted":
      return `${who} sent bounty hunter ${event.card[1]} after ${name(event.target)}` +
        (event.alien !== null && event.alien !== undefined ? `'s alien ${event.alien}.` : "'s hand.");
    case "took_alien":
      return `${who} took ${name(event.target)}'s alien ${event.alien}.`;
    case "ended_turn":
      return `${who} ended their turn.`;
    case "passed":
      return `${who} passed.`;
    case "drew": {
      const n = Array.isArray(event.cards) ? event.cards.length : event.cards;
      return n ? `${who} drew ${n}.` : null;
    }
    case "reshuffled":
      return "The played cards are shuffled into a new draw pile.";
    case "claimed":
      return `${who} shouted CAPTURED! alien ${event.card.slice(1)} from ${pair(event.table).join("·")}.`;
    case "wrong_claim":
      return `${who} shouted CAPTURED! wrongly (alien ${event.card.slice(1)})` +
        (event.taker !== null ? `: ${name(event.taker)} takes a card.` : ".");
    case "stacked":
      return `${who} stacked.`;
    case "handed_over":
      return `${who} handed ${name(event.to)} a card.`;
    case "window_closed":
      return event.late.length ? `Too late to stack: ${event.late.map(name).join(", ")}.` : null;
    default:
      return null;
  }
}
