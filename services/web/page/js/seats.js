// How a seat is named on the page, from its SeatSpec alone.

export function seatLabel(spec = {}) {
  switch (spec.kind) {
    case 'SEAT_KIND_MODEL':
      return spec.display_name || `model ${spec.model_id}`;
    case 'SEAT_KIND_BOT':
      return spec.display_name || (spec.stockfish_elo ? `Stockfish ${spec.stockfish_elo}` : `bot level ${spec.bot_level}`);
    case 'SEAT_KIND_HUMAN':
      return spec.display_name || 'player';
    case 'SEAT_KIND_GUEST':
      return spec.display_name || 'guest';
    default:
      return spec.display_name || 'open seat';
  }
}

export function isModelGame(view) {
  return (view.seats || []).some((s) => s.spec && s.spec.kind === 'SEAT_KIND_MODEL');
}

export function statusWord(status) {
  return String(status || '').replace('GAME_STATUS_', '').toLowerCase();
}
