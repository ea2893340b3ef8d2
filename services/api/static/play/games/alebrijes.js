// Alebrijes at the table: your hand sorted by colour and number, the combination to
// beat in the middle with who played it, the others' hand sizes, passes and minus
// points. Select cards, then Play or Pass; at a round's start choose up to 2 to lay
// aside. Rules: docs/rules/alebrijes.md.
import { backs, card, cardRow, counted, el, sameCards } from "../cards.js";

export const title = "Alebrijes";
export const preset = { rounds: 1, turn_seconds: 120 }; // one round: a short game

// Colour, its symbol (so colour is never the only sign) and the next colour up.
const COLOURS = {
  B: { name: "blue", symbol: "●", tone: "blue" },
  G: { name: "green", symbol: "▲", tone: "green" },
  P: { name: "pink", symbol: "■", tone: "pink" },
  O: { name: "orange", symbol: "★", tone: "orange" },
  J: { name: "joker", symbol: "✦", tone: "joker" },
};
const NEXT = { B: "G", G: "P", P: "O", O: "B" };
const OLLIN = "✺";

const colourOf = (code) => code[0];
const numberOf = (code) => Number(code[1]);
const ollin = (code) => code.endsWith("*");

export function cardLabel(code) {
  const { name } = COLOURS[colourOf(code)];
  return `${name} ${numberOf(code)}${ollin(code) ? " with Ollin" : ""}`;
}

function face(code) {
  const colour = COLOURS[colourOf(code)];
  return { index: `${numberOf(code)}`, symbol: colour.symbol, tone: colour.tone,
    mark: ollin(code) ? OLLIN : null };
}

/** "two green 3s", "a blue 5", "three jokers as pink 4s". */
export function combination({ cards, colour, number, count }) {
  const jokersOnly = cards.every((c) => colourOf(c) === "J");
  const shade = COLOURS[colour]?.name ?? "";
  const plural = count > 1 ? "s" : "";
  if (jokersOnly) return `${counted(count)} joker${plural} as ${shade} ${number}${plural}`;
  return `${counted(count)} ${shade} ${number}${plural}`;
}

// The selection is hand positions; it is cleared when the hand or the phase changes.
export function selectionBasis(view) {
  const s = view.state ?? {};
  return JSON.stringify([s.phase, s.hand, s.table, view.to_act]);
}

const selectedCards = (view, ui) => [...ui.selected].map((key) => view.state.hand[Number(key)]);

export function board(view, ui) {
  const s = view.state;
  const others = view.seats.filter((seat) => seat.seat !== ui.me).map((seat) => seatBox(view, ui, seat.seat));
  const parts = [el("div", "others", ...others), middle(view, ui)];
  if (ui.me !== null && ui.me !== undefined && s.hand) parts.push(mine(view, ui));
  if (s.round_scores.length) parts.push(roundScores(view, ui));
  return el("div", "board", ...parts);
}

function seatBox(view, ui, seat) {
  const s = view.state;
  const acting = view.to_act.includes(seat);
  const facts = el("p", "facts",
    backs(s.hand_sizes[seat], `${s.hand_sizes[seat]} cards in hand`),
    s.laid_aside_counts[seat] ? el("span", "", `${s.laid_aside_counts[seat]} laid aside`) : null,
    el("span", "", `${s.totals[seat]} points`));
  return el("section", `seat${acting ? " acting" : ""}`,
    el("h3", "", ui.name(seat), acting ? el("span", "badge turn", "to play") : null,
      s.passed[seat] ? el("span", "badge", "passed") : null,
      s.table?.seat === seat ? el("span", "badge", "on the table") : null),
    facts);
}

function middle(view, ui) {
  const s = view.state;
  let say;
  if (s.phase === "exchange") {
    say = `Round ${s.round}: each player may lay aside up to 2 cards and draw as many, ${ui.name(s.starting_seat)} first.`;
  } else if (s.table) {
    say = `To beat: ${combination(s.table)}, played by ${ui.name(s.table.seat)}.`;
  } else if (s.phase === "play") {
    say = `${ui.name(s.turn)} leads: any single card or set.`;
  } else if (s.phase === "over") {
    say = "The game is over.";
  } else {
    say = "Waiting for the deal.";
  }
  const shown = s.table
    ? cardRow(s.table.cards.map((c) => card({ face: face(c), label: cardLabel(c) })), "the combination to beat")
    : null;
  return el("div", "middle", shown, el("p", "say", say),
    el("p", "pile", `Round ${s.round} of ${s.rounds} · draw pile ${s.draw_pile_size}`));
}

function mine(view, ui) {
  const s = view.state;
  const me = ui.me;
  const pickable = !ui.readonly && view.to_act.includes(me);
  const hand = s.hand.map((code, i) => card({
    face: face(code), label: cardLabel(code),
    pick: pickable ? { key: String(i), selected: ui.selected.has(String(i)), onToggle: (k) => ui.toggle(k) } : null,
  }));
  const aside = s.laid_aside.length
    ? el("p", "muted", `Laid aside (only you see them): ${s.laid_aside.map(cardLabel).join(", ")}`) : null;
  return el("section", `me${view.to_act.includes(me) ? " acting" : ""}`,
    el("h3", "", `${ui.name(me)} (you) · ${s.totals[me]} points`, s.passed[me] ? el("span", "badge", "passed") : null),
    cardRow(hand, "your hand"), aside);
}

function roundScores(view, ui) {
  const s = view.state;
  const head = el("tr", "", el("th", "", "round"), ...view.seats.map((seat) => el("th", "", ui.name(seat.seat))));
  const rows = s.round_scores.map((scores, r) =>
    el("tr", "", el("td", "", String(r + 1)), ...scores.map((n) => el("td", "", String(n)))));
  return el("table", "scores round-scores", el("caption", "", "Minus points per round"),
    el("thead", "", head), el("tbody", "", ...rows));
}

export function privateCards(state) {
  return cardRow((state.hand ?? []).map((c) => card({ face: face(c), label: cardLabel(c), small: true })), "hand");
}

// --- what the selection allows

export function actions(view, ui) {
  const s = view.state;
  if (!view.to_act.includes(ui.me)) return { why: "" };
  const chosen = selectedCards(view, ui);
  if (s.phase === "exchange") return exchange(view, chosen);
  return play(view, ui, chosen);
}

function exchange(view, chosen) {
  const n = chosen.length;
  const command = view.legal.find((c) => c.type === "exchange" && sameCards(c.cards, chosen));
  const label = n ? `Lay aside ${n} and draw ${n}` : "Keep my hand";
  const why = command ? "Choose up to 2 cards to lay aside, or keep your hand."
    : n > 2 ? "You may lay aside at most 2 cards." : `The draw pile holds only ${view.state.draw_pile_size}.`;
  return { buttons: [{ id: "exchange", label, command, kind: "primary" }], why };
}

function play(view, ui, chosen) {
  const s = view.state;
  const plays = view.legal.filter((c) => c.type === "play" && sameCards(c.cards, chosen));
  const controls = [];
  let command = null;
  if (plays.length) {
    const colours = [...new Set(plays.map((c) => c.colour ?? null))];
    const colour = ui.choice.colour ?? colours[0];
    if (colours.length > 1) {
      controls.push(radios("colour", "The jokers are", colours.map((c) => [c, COLOURS[c].name]), colour, ui));
    }
    const ofColour = plays.filter((c) => (c.colour ?? null) === colour);
    const effects = [...new Set(ofColour.map((c) => c.ollin ?? "none"))];
    const effect = ui.choice.ollin ?? "none";
    if (effects.length > 1) {
      const words = { none: "no effect", others_draw: "all others draw 1", lay_aside: "lay aside 1 card" };
      controls.push(radios("ollin", `Ollin ${OLLIN}`, effects.map((e) => [e, words[e]]), effect, ui));
    }
    const withEffect = ofColour.filter((c) => (c.ollin ?? "none") === effect);
    if (effect === "lay_aside") {
      const asides = withEffect.map((c) => c.lay_aside);
      const aside = ui.choice.lay_aside ?? asides[0];
      controls.push(picker("lay_aside", "Card to lay aside", asides.map((c) => [c, cardLabel(c)]), aside, ui));
      command = withEffect.find((c) => c.lay_aside === aside) ?? null;
    } else {
      command = withEffect[0] ?? null;
    }
  }
  const playLabel = chosen.length ? `Play ${chosen.length === 1 ? "this card" : `these ${chosen.length}`}` : "Play";
  const buttons = [{ id: "play", label: playLabel, command, kind: "primary",
    why: chosen.length ? whyNot(s, chosen, ui) : "Select a card or a set to play." }];
  const passes = view.legal.filter((c) => c.type === "pass");
  if (passes.length) {
    const pass = passes.find((c) => sameCards(c.exchange ?? [], chosen));
    const label = chosen.length && pass ? `Pass, lay aside ${chosen.length}` : "Pass";
    buttons.push({ id: "pass", label, command: pass ?? (chosen.length ? null : passes[0]) });
  }
  return { buttons, controls };
}

// Why a selection cannot be played, in the rulebook's words.
function whyNot(s, chosen, ui) {
  const numbers = new Set(chosen.map(numberOf));
  const colours = new Set(chosen.filter((c) => colourOf(c) !== "J").map(colourOf));
  if (chosen.length > 1 && (numbers.size > 1 || colours.size > 1)) {
    return "A set is cards of one number and one colour; jokers fill a set but keep their own number.";
  }
  if (!s.table) return "The leader may play any single card or set.";
  const { colour, number, count } = s.table;
  const higher = `${count} ${COLOURS[colour].name} higher than ${number}`;
  const next = colour === "O" ? `exactly ${count + 1} blue` : `${count} ${COLOURS[NEXT[colour]].name}`;
  return `To beat ${combination(s.table)}, play ${higher}, or ${next}.`;
}

function radios(name, legend, options, value, ui) {
  const set = el("fieldset", "", el("legend", "", legend));
  for (const [option, words] of options) {
    const input = el("input");
    Object.assign(input, { type: "radio", name, value: option, checked: option === value });
    input.onchange = () => ui.choose(name, option);
    set.append(el("label", "", input, words));
  }
  return set;
}

function picker(name, legend, options, value, ui) {
  const select = el("select");
  select.name = name;
  select.append(...options.map(([option, words]) => new Option(words, option, false, option === value)));
  select.onchange = () => ui.choose(name, select.value);
  return el("label", "", `${legend} `, select);
}

// --- the log, from the redacted events

const cards = (n) => `${counted(n)} card${n > 1 ? "s" : ""}`;

export function line(event, name, me) {
  const who = name(event.seat);
  switch (event.type) {
    case "dealt":
      return `Round ${event.round}: ${event.hand_sizes[0]} cards each; ${name(event.starting_seat)} starts.`;
    case "exchanged":
      if (!event.count) return `${who} kept their hand.`;
      return `${who} laid aside ${cards(event.count)} and drew as many` +
        (event.seat === me && event.laid_aside ? ` (${event.laid_aside.map(cardLabel).join(", ")}).` : ".");
    case "played": {
      const effect = { others_draw: ", and all others draw a card", lay_aside: ", and lays a card aside" }[event.ollin] ?? "";
      return `${who} played ${combination(event)}${effect}.`;
    }
    case "ollin_draws":
      return event.draws.length ? `${event.draws.map((d) => name(d.seat)).join(", ")} drew a card.` : "The draw pile is empty: nobody draws.";
    case "laid_aside":
      return `${who} laid a card aside.`;
    case "passed":
      return event.count ? `${who} passed and laid aside ${cards(event.count)}.` : `${who} passed.`;
    case "table_cleared":
      return `The table is cleared: ${name(event.leader)} leads.`;
    case "round_ended":
      return `Round ${event.round} is over: ${name(event.winner)} emptied their hand. Minus points: ` +
        event.scores.map((n, seat) => `${name(seat)} ${n}`).join(", ") + ".";
    default:
      return null;
  }
}
