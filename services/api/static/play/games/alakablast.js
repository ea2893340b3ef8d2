// Alakablast at the table: your hidden cards (only you see them), your open cards
// face down to you with what informants told you, the others' open cards face up and
// their hidden ones face down; gems; asking and duels as guided steps. Cards are named
// by their place in the hand (1st, 2nd, ...). Rules: docs/rules/alakablast.md.
import { card, cardRow, el } from "../cards.js";

export const title = "Alakablast";
export const preset = { turn_seconds: 120 };

const ELEMENTS = {
  W: { name: "water", symbol: "≈", tone: "blue" },
  F: { name: "fire", symbol: "♨", tone: "red" },
  P: { name: "plant", symbol: "♣", tone: "green" },
  L: { name: "light", symbol: "☀", tone: "orange" },
  S: { name: "shadow", symbol: "☾", tone: "purple" },
};
const ORDINAL = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th"];

export function spellLabel(code) {
  const element = ELEMENTS[code[0]];
  return code[0] === "L" || code[0] === "S" ? element.name : `${element.name} ${code[1]}`;
}

const face = (code) => ({ index: code[1], symbol: ELEMENTS[code[0]].symbol, tone: ELEMENTS[code[0]].tone });

function toldWords(told) {
  if (!told) return "";
  if (told.special) return "light or shadow";
  const words = [told.element && ELEMENTS[told.element].name, told.power && `power ${told.power}`].filter(Boolean);
  return words.join(", ");
}

export function selectionBasis(view) {
  const s = view.state ?? {};
  // Not the other duelist's choice: a card picked for the duel stays picked.
  return JSON.stringify([s.phase, s.turn_number, s.hands?.map((h) => h.length), s.duel?.stake ?? null,
    view.to_act.includes(view.seat)]);
}

const chosen = (ui) => {
  const [key] = ui.selected;
  if (key === undefined) return null;
  const [seat, pos] = key.split(":").map(Number);
  return { seat, pos };
};

export function board(view, ui) {
  const others = view.seats.filter((seat) => seat.seat !== ui.me).map((seat) => seatBox(view, ui, seat.seat));
  const parts = [el("div", "others", ...others), middle(view, ui)];
  if (ui.me !== null && ui.me !== undefined) parts.push(mine(view, ui));
  return el("div", "board", ...parts);
}

function gems(view, seat) {
  const n = view.state.gems[seat];
  return el("span", "gems", `◆ ${n} of ${view.state.target} gems`);
}

// Which cards may be picked now: your open cards to ask about, a rival's open card to
// give a duel clue about, any of your cards to play in a duel.
function pickable(view, ui, seat, pos) {
  if (ui.readonly || !view.to_act.includes(ui.me)) return false;
  const s = view.state;
  const slot = s.hands[seat][pos];
  if (s.phase === "duel") return seat === ui.me;
  if (s.phase !== "turn") return false;
  return slot.open;
}

function cardAt(view, ui, seat, pos) {
  const slot = view.state.hands[seat][pos];
  const mineCard = seat === ui.me;
  const where = `${ORDINAL[pos]} card`;
  let label;
  let picture;
  let note = toldWords(slot.told);
  if (slot.spell) {
    picture = face(slot.spell);
    label = `${mineCard ? "your" : `${view.seats[seat].name}'s`} ${where}: ${spellLabel(slot.spell)}` +
      (slot.open ? (mineCard ? "" : ", open") : ", hidden, only you see it");
    if (!slot.open && mineCard) note = "hidden";
  } else if (slot.open && mineCard) {
    picture = { index: "", symbol: "?", tone: "unknown" };
    label = `your ${where}: open, you cannot see it${note ? `; told: ${note}` : "; told nothing yet"}`;
  } else if (slot.open) { // a spectator's view: open cards are for the players
    picture = null;
    label = `${view.seats[seat].name}'s ${where}: open${note ? `; told: ${note}` : ""}`;
    note = note || "open";
  } else {
    picture = null;
    label = `${view.seats[seat].name}'s ${where}: hidden`;
  }
  const key = `${seat}:${pos}`;
  return card({ face: picture, label, note,
    pick: pickable(view, ui, seat, pos) ? { key, selected: ui.selected.has(key), onToggle: (k) => ui.toggle(k, true) } : null });
}

function seatBox(view, ui, seat) {
  const acting = view.to_act.includes(seat);
  const hand = view.state.hands[seat].map((_, pos) => cardAt(view, ui, seat, pos));
  return el("section", `seat${acting ? " acting" : ""}`,
    el("h3", "", ui.name(seat), acting ? el("span", "badge turn", "to act") : null),
    el("p", "facts", gems(view, seat)), cardRow(hand, `${ui.name(seat)}'s cards`));
}

function middle(view, ui) {
  const s = view.state;
  const parts = [];
  if (s.question) {
    const q = s.question;
    const claim = q.claim ? ` (is it ${q.claim.element ? ELEMENTS[q.claim.element].name : `power ${q.claim.power}`}?)` : "";
    parts.push(el("p", "say", `${ui.name(q.asker)} asks ${ui.name(q.informant)} about their ${ORDINAL[q.card]} card${claim}.`));
  } else if (s.duel) {
    const d = s.duel;
    const played = [...d.played.attacker.map((c) => [c, d.attacker]), ...d.played.rival.map((c) => [c, d.rival])];
    parts.push(el("p", "say", `${ui.name(d.attacker)} duels ${ui.name(d.rival)}: ${d.kind} duel for ${d.stake} gem${d.stake > 1 ? "s" : ""}.` +
      (d.chosen.length ? ` Chosen: ${d.chosen.map(ui.name).join(", ")}.` : "")));
    if (played.length) {
      parts.push(cardRow(played.map(([c, seat]) => card({ face: face(c), label: `${ui.name(seat)} played ${spellLabel(c)}`, small: true })), "tied cards"));
    }
  } else if (s.phase === "turn") {
    parts.push(el("p", "say", `${ui.name(s.turn)}'s turn: ask for a clue or challenge a rival.`));
  } else if (s.phase === "over") {
    parts.push(el("p", "say", "The game is over."));
  }
  const discard = s.discard_zone.map((c) => card({ face: face(c), label: spellLabel(c), small: true }));
  parts.push(el("div", "", el("p", "pile", `Discard zone (${s.discard_zone.length}) · draw pile ${s.draw_pile}`),
    cardRow(discard, "discard zone")));
  return el("div", "middle", ...parts);
}

function mine(view, ui) {
  const me = ui.me;
  const hand = view.state.hands[me].map((_, pos) => cardAt(view, ui, me, pos));
  return el("section", `me${view.to_act.includes(me) ? " acting" : ""}`,
    el("h3", "", `${ui.name(me)} (you) · `, gems(view, me)), cardRow(hand, "your cards"),
    view.state.phase === "over" ? null
      : el("p", "muted", "? cards are open: the others see them, you know only what you were told."));
}

export function privateCards(state) {
  const hand = state.hands?.[state.seat] ?? [];
  return cardRow(hand.filter((slot) => slot.spell).map((slot) => card({ face: face(slot.spell), label: spellLabel(slot.spell), small: true })), "cards");
}

// --- guided steps

export function actions(view, ui) {
  const s = view.state;
  const legal = view.legal;
  if (!legal.length) return { why: "" };
  const pick = chosen(ui);
  if (s.phase === "answer") {
    const q = s.question;
    const buttons = legal.map((c) => ({ id: `inform-${c.dimension}`, label: `Tell the ${c.dimension}`, command: c, kind: "primary" }));
    const spell = s.hands[q.asker][q.card].spell;
    return { buttons, why: `${ui.name(q.asker)} asks about their ${ORDINAL[q.card]} card (${spellLabel(spell)}): tell them its element or its power.` };
  }
  if (s.phase === "duel") {
    const command = pick && legal.find((c) => c.type === "choose" && c.card === pick.pos);
    return { buttons: [{ id: "choose", label: "Play this card", command: command ?? null, kind: "primary" }],
      why: pick ? "" : "Choose one of your cards for the duel (an open one is played blind)." };
  }
  const buttons = [];
  const controls = [];
  let why = "";
  if (pick && pick.seat === ui.me) {
    const asks = legal.filter((c) => c.type === "ask" && c.card === pick.pos);
    if (!asks.length) why = "You already know all that can be told about that card, or may not ask now.";
    const informants = [...new Set(asks.map((c) => c.informant))];
    const informant = ui.choice.informant !== undefined ? Number(ui.choice.informant) : informants[0];
    if (informants.length > 1) controls.push(select("informant", "Ask", informants.map((i) => [i, ui.name(i)]), informant, ui));
    const ofInformant = asks.filter((c) => c.informant === informant);
    const claims = ofInformant.map((c) => JSON.stringify(c.claim ?? null));
    const claim = ui.choice.claim ?? claims[0];
    if (claims.length > 1) {
      controls.push(select("claim", "I think it is", claims.map((c) => [c, claimWords(JSON.parse(c))]), claim, ui));
    }
    const ask = ofInformant.find((c) => JSON.stringify(c.claim ?? null) === claim);
    buttons.push({ id: "ask", label: `Ask ${informant !== undefined ? ui.name(informant) : ""}`.trim(), command: ask ?? null, kind: "primary" });
  } else if (pick) {
    const duels = legal.filter((c) => c.type === "duel" && c.rival === pick.seat && c.card === pick.pos);
    if (!duels.length) why = `${ui.name(pick.seat)} already knows all that can be told about that card.`;
    const kinds = [...new Set(duels.map((c) => c.kind))];
    const kind = ui.choice.kind ?? kinds[0];
    if (kinds.length > 1) controls.push(select("kind", "Duel of", kinds.map((k) => [k, k]), kind, ui));
    const ofKind = duels.filter((c) => c.kind === kind);
    const dims = ofKind.map((c) => c.dimension);
    const dimension = ui.choice.dimension ?? dims[0];
    if (dims.length > 1) controls.push(select("dimension", "Clue: tell them its", dims.map((d) => [d, d]), dimension, ui));
    const duel = ofKind.find((c) => c.dimension === dimension);
    buttons.push({ id: "duel", label: `Duel ${ui.name(pick.seat)}`, command: duel ?? null, kind: "primary" });
  } else {
    why = "Your turn: select one of your ? cards to ask about it, or a rival's open card to give them a clue and duel.";
  }
  // A rival who already knows all their open cards is dueled without a clue.
  legal.filter((c) => c.type === "duel" && c.card === undefined).forEach((c) => buttons.push({
    id: `duel-${c.rival}-${c.kind}`, label: `${c.kind} duel with ${ui.name(c.rival)} (no clue to give)`, command: c }));
  return { buttons, controls, why };
}

function claimWords(claim) {
  if (!claim) return "no guess";
  return claim.element ? ELEMENTS[claim.element].name : `power ${claim.power}`;
}

function select(name, legend, options, value, ui) {
  const input = el("select");
  input.name = name;
  input.append(...options.map(([option, words]) => new Option(words, String(option), false, String(option) === String(value))));
  input.onchange = () => ui.choose(name, input.value);
  return el("label", "step", `${legend} `, input);
}

// --- the log

export function line(event, name, me) {
  const who = name(event.seat);
  switch (event.type) {
    case "dealt":
      return "The cards are dealt: hidden ones to their owners, open ones for the others to see.";
    case "turn_began":
      return `${name(event.turn)}'s turn.`;
    case "asked":
      return `${who} asked ${name(event.informant)} about their ${ORDINAL[event.card]} card` +
        (event.claim ? ` (is it ${claimWords(event.claim)}?).` : ".");
    case "informed": {
      const clue = event.clue.special ? "light or shadow" : event.clue.element ? ELEMENTS[event.clue.element].name : `power ${event.clue.power}`;
      const where = event.cards.map((p) => ORDINAL[p]).join(" and ");
      return `${who} told ${event.target === me ? "you" : name(event.target)}: the ${where} card${event.cards.length > 1 ? "s are" : " is"} ${clue}.`;
    }
    case "duel_declared":
      return `${who} challenged ${name(event.rival)} to ${event.kind === "element" ? "an element" : "a power"} duel.`;
    case "card_chosen":
      return `${who} chose a card.`;
    case "duel_revealed":
      return `${name(event.attacker)}'s ${spellLabel(event.attacker_spell)} against ${name(event.rival)}'s ${spellLabel(event.rival_spell)}: ` +
        (event.winner === null ? "a tie." : `${name(event.winner)} wins.`);
    case "duel_tied":
      return `Tied: the stake rises to ${event.stake} gems.`;
    case "duel_won":
      return `${name(event.winner)} won ${event.gems} gem${event.gems > 1 ? "s" : ""} from the duel with ${name(event.loser)}.`;
    case "cards_drawn": {
      const n = Array.isArray(event.cards) ? event.cards.length : event.cards;
      return `${who} drew ${n} ${event.open ? "open" : "hidden"} card${n > 1 ? "s" : ""}.`;
    }
    case "draw_pile_rebuilt":
      return "The discard zone is shuffled into a new draw pile.";
    case "game_over":
      return event.reason === "shared_victory" ? "Tied through every card: everyone shares the victory." : null;
    default:
      return null;
  }
}
