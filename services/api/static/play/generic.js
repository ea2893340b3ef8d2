// The table of a game that has no table module of its own (games/<game>.js): a polite
// plain one. Its view's state is shown as sent, each legal command is a button that
// sends it as it is, and the log names each event's type. Any game the server hosts can
// be played to the end with it, if not enjoyed.
import { el } from "./cards.js";

export function forGame(kind) {
  return { ...table, title: kind.charAt(0).toUpperCase() + kind.slice(1) };
}

const table = {
  preset: {},
  selectionBasis: () => null,
  board(view) {
    return el("div", "generic",
      el("p", "why", "No table client for this game: its state, as the API sends it."),
      el("pre", "", JSON.stringify(view.state, null, 2)));
  },
  privateCards(state) {
    return el("pre", "", JSON.stringify(state?.hand ?? null));
  },
  actions(view) {
    const words = (c) => Object.entries(c).filter(([k]) => k !== "type").map(([k, v]) => `${k} ${JSON.stringify(v)}`);
    const buttons = view.legal.map((c, i) => ({
      id: `${c.type}-${i}`, label: [c.type, ...words(c)].join(" "), command: c, kind: "primary",
    }));
    return { buttons };
  },
  line(event, name) {
    return event.seat == null ? `${event.type}.` : `${name(event.seat)}: ${event.type}.`;
  },
};
