// The log of moves, newest first, in the game's words: each game's table module says
// what an event means (`line`); the table's own events are worded here.

/** What the service's own events say, or null for the ones a player need not read. */
export function serviceLine(event, name) {
  switch (event.type) {
    case "game_started":
      return "The game begins.";
    case "game_ended": {
      const winners = event.result?.winners ?? [];
      return `The game is over: ${winners.map(name).join(" and ") || "nobody"} won.`;
    }
    case "game_cancelled":
      return "The game was cancelled.";
    case "timed_out":
      return `${name(event.seat)} ran out of time.`;
    case "seat_taken_over":
      return `A bot plays for ${name(event.seat)} now.`;
    case "seat_returned":
      return `${name(event.seat)} is back.`;
    case "seat_claimed":
      return `${name(event.seat)} sat down.`;
    case "seat_accepted":
      return `${name(event.seat)} accepted the invitation.`;
    case "seat_declined":
      return `The invitation to seat ${event.seat} was declined: the seat is open.`;
    case "rematch_offered":
      return "A rematch is offered.";
    default:
      return null;
  }
}

/** One line of the log. */
export function logItem(text, version) {
  const item = document.createElement("li");
  item.value = version;
  item.textContent = text;
  return item;
}
