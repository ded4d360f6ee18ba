// A tiny Gaple engine in JavaScript, so that the Node adapter template runs as shipped.
//
// It plays one hand: the opening (0-0, a double or any tile, with banned leads and turned-up
// starters), placing on a named end, passing or discarding when stuck, going out and blocking,
// the counts (0-0 = 25 included), the ranking and the settlements per-hand, chips, difference
// and cumulative. It does not play the Sundanese pair scoring (settlement "partnership"): the
// adapter declines those hands. It does not import gaple; each method names the rule ID it
// implements (see the rules reference), and its rejections name the rule they break.
//
// Tiles are [low, high] arrays; moves are {kind, tile, end} with kind "lead", "place", "pass"
// or "discard" and end "left" or "right" (placements only).

export const LEFT = "left";
export const RIGHT = "right";

/** Every option of a hand with its default (pagat's 4 x 7), as the protocol names them. */
export const DEFAULT_RULES = Object.freeze({
  max_pip: 6,
  players: 4,
  hand_size: 7,
  partnership: false,
  first_lead: "double-blank",
  later_lead: "double",
  forbidden_leads: [],
  blocked_action: "discard",
  double_blank_25: false,
  settlement: "per-hand",
  target: null,
  match_hands: null,
  challenge_tie: "replay",
  challenge_win_base: "all",
  challenge_win_multiplier: 1,
  challenge_loss_base: "all",
  challenge_loss_multiplier: 2,
  top_double_bonus: 0,
  blank_double_bonus: 0,
  dead_double_debit: false,
  closing_any_double: false,
});

/** The values an option of a fixed list may take. */
export const CHOICES = Object.freeze({
  first_lead: ["double-blank", "double", "any-tile"],
  later_lead: ["double-blank", "double", "any-tile"],
  blocked_action: ["pass", "discard"],
  settlement: ["per-hand", "chips", "difference", "cumulative", "partnership"],
  challenge_tie: ["replay", "blocker-loses"],
  challenge_win_base: ["all", "blocker-pair", "other-pair"],
  challenge_loss_base: ["all", "blocker-pair", "other-pair"],
});

/** The deals the sources describe: the double-six set dealt 4 x 7, 4 x 6 or 5 x 5. */
const SOURCED_DEALS = ["4x7", "4x6", "5x5"];

/** The rule ID of each lead rule (open.double-blank, open.double, open.any-tile). */
const LEAD_RULE_IDS = {
  "double-blank": "open.double-blank",
  double: "open.double",
  "any-tile": "open.any-tile",
};

/** The tile with halves a and b, low half first. */
export function tile(a, b) {
  return a <= b ? [a, b] : [b, a];
}

/** [0, 3] -> "0-3". */
export function tileText(t) {
  return `${t[0]}-${t[1]}`;
}

/** "lead 0-0", "place 0-3 left", "pass", "discard 4-4". */
export function moveText(move) {
  if (move.kind === "pass") return "pass";
  const text = `${move.kind} ${tileText(move.tile)}`;
  return move.kind === "place" ? `${text} ${move.end}` : text;
}

const pips = (t) => t[0] + t[1];
const same = (a, b) => a[0] === b[0] && a[1] === b[1];
const holds = (tiles, t) => tiles.some((u) => same(u, t));
const fits = (t, value) => t[0] === value || t[1] === value;

/** An action the rules forbid: code and rule ID as the protocol names them. */
export class RuleError extends Error {
  constructor(code, rule, message) {
    super(message);
    this.code = code;
    this.rule = rule;
  }
}

/** One hand of Gaple, from the deal to its result. */
export class Game {
  /**
   * rules: every option (DEFAULT_RULES filled in); hands: the tiles dealt per seat; starter:
   * the turned-up tile or null; firstSeat: who acts first with a starter, else where the
   * search for the opener starts; firstHand: the first hand of a match (first_lead applies).
   */
  constructor(rules, hands, starter, firstSeat, firstHand) {
    this.rules = rules;
    this.hands = hands.map((hand) => hand.map((t) => tile(t[0], t[1])));
    this.discards = hands.map(() => []);
    this.firstHand = firstHand;
    this.line = [];
    this.ending = null;
    this.outSeat = null;
    if (starter !== null) {
      // deal.starter, open.starter-seat: the starter begins the line, firstSeat acts first.
      this.line = [tile(starter[0], starter[1])];
      this.turn = firstSeat;
      if (this.isBlocked()) this.ending = "blocked";
    } else {
      this.turn = this.findOpener(firstSeat);
    }
  }

  // -- opening ---------------------------------------------------------------------------

  /** The lead rule in force: first_lead in a match's first hand, later_lead after. */
  leadRule() {
    return this.firstHand ? this.rules.first_lead : this.rules.later_lead;
  }

  /** open.forbidden: a house rule may ban tiles from leading. */
  banned(t) {
    return this.rules.forbidden_leads.some((u) => same(u, t));
  }

  /** Whether the lead rule allows t (open.double-blank, open.double, open.any-tile). */
  ruleAllows(t) {
    const rule = this.leadRule();
    if (rule === "double-blank") return t[0] === 0 && t[1] === 0;
    if (rule === "double") return t[0] === t[1];
    return true;
  }

  mayLead(t) {
    return !this.banned(t) && this.ruleAllows(t);
  }

  /** The first seat from firstSeat in turn order holding a tile it may lead (under the 0-0
   * rule, the holder of 0-0; a seat with only banned tiles loses the lead to the next). */
  findOpener(firstSeat) {
    const players = this.rules.players;
    for (let k = 0; k < players; k += 1) {
      const seat = (firstSeat + k) % players;
      if (this.hands[seat].some((t) => this.mayLead(t))) return seat;
    }
    throw new Error("no seat holds a tile it may lead");
  }

  // -- what may be played ----------------------------------------------------------------

  /** The seat to act, null once the hand is over (turn.order, end.final). */
  toAct() {
    return this.ending === null ? this.turn : null;
  }

  /** [left end, right end], or null on an empty table. */
  ends() {
    if (this.line.length === 0) return null;
    return [this.line[0][0], this.line[this.line.length - 1][1]];
  }

  endValue(end) {
    const [left, right] = this.ends();
    return end === LEFT ? left : right;
  }

  /** Every placement of seat: a tile fitting both ends gives two moves (play.match-end). */
  placements(seat) {
    const ends = this.ends();
    if (ends === null) return [];
    const moves = [];
    for (const t of this.hands[seat]) {
      if (fits(t, ends[0])) moves.push({ kind: "place", tile: t, end: LEFT });
      if (fits(t, ends[1])) moves.push({ kind: "place", tile: t, end: RIGHT });
    }
    return moves;
  }

  /** No seat can place a tile on either end (end.blocked). */
  isBlocked() {
    const [left, right] = this.ends();
    return !this.hands.some((hand) => hand.some((t) => fits(t, left) || fits(t, right)));
  }

  /** The moves of the seat to act: leads, else placements, else pass or a discard. */
  legalMoves() {
    const seat = this.toAct();
    if (seat === null) return [];
    if (this.line.length === 0) {
      return this.hands[seat].filter((t) => this.mayLead(t)).map((t) => ({ kind: "lead", tile: t }));
    }
    const moves = this.placements(seat);
    if (moves.length > 0) return moves; // turn.forced-play
    if (this.rules.blocked_action === "pass") return [{ kind: "pass" }];
    return this.hands[seat].map((t) => ({ kind: "discard", tile: t }));
  }

  // -- checking and making an action -----------------------------------------------------

  /** Throw a RuleError for the first rule the move breaks, in the protocol's order. */
  check(seat, move) {
    if (this.ending !== null) {
      throw new RuleError("hand-over", "end.final", `the hand has ended (${this.ending})`);
    }
    if (seat !== this.turn) {
      throw new RuleError("wrong-seat", "turn.order", `seat ${this.turn} is to act`);
    }
    const { kind, tile: t } = move;
    const empty = this.line.length === 0;
    if (kind === "lead" && !empty) {
      throw new RuleError("line-started", "open.lead", "a lead needs an empty table");
    }
    if (kind !== "lead" && empty) {
      throw new RuleError("lead-required", "open.lead", "the table is empty: lead a tile");
    }
    if (kind === "pass" && this.rules.blocked_action !== "pass") {
      throw new RuleError("pass-not-allowed", "block.discard", "a stuck seat discards");
    }
    if (kind === "discard" && this.rules.blocked_action !== "discard") {
      throw new RuleError("discard-not-allowed", "block.pass", "a stuck seat passes");
    }
    if (t !== undefined && !holds(this.hands[seat], t)) {
      throw new RuleError("not-in-hand", "play.in-hand", `seat ${seat} does not hold ${tileText(t)}`);
    }
    if (kind === "lead" && this.banned(t)) {
      throw new RuleError("illegal-lead", "open.forbidden", `${tileText(t)} may not be led`);
    }
    if (kind === "lead" && !this.ruleAllows(t)) {
      const rule = LEAD_RULE_IDS[this.leadRule()];
      throw new RuleError("illegal-lead", rule, `the opening rule does not allow ${tileText(t)}`);
    }
    if (kind === "place" && !fits(t, this.endValue(move.end))) {
      throw new RuleError("no-match", "play.match-end", `the ${move.end} end does not match`);
    }
    if ((kind === "pass" || kind === "discard") && this.placements(seat).length > 0) {
      throw new RuleError("must-place", "turn.forced-play", `seat ${seat} can place a tile`);
    }
  }

  /** Make the move for seat, or throw a RuleError and leave the hand unchanged. */
  play(seat, move) {
    this.check(seat, move);
    const t = move.tile;
    if (t !== undefined) {
      const hand = this.hands[seat];
      hand.splice(hand.findIndex((u) => same(u, t)), 1);
      if (move.kind === "discard") this.discards[seat].push(t);
      else if (move.kind === "lead") this.line = [t]; // open.lead: low half on the left
      else this.attach(t, move.end);
    }
    if (this.hands[seat].length === 0) {
      this.ending = "out"; // end.out, by placing or by discarding the last tile
      this.outSeat = seat;
    } else if ((move.kind === "lead" || move.kind === "place") && this.isBlocked()) {
      this.ending = "blocked"; // end.blocked: only a tile put down changes the ends
    }
    this.turn = (seat + 1) % this.rules.players;
  }

  /** Put t on end: its matching half touches the line, the other becomes the end. */
  attach(t, end) {
    const value = this.endValue(end);
    const other = t[0] === value ? t[1] : t[0];
    if (end === LEFT) this.line.unshift([other, value]);
    else this.line.push([value, other]);
  }

  // -- counting, the winner and the points -----------------------------------------------

  /** A seat's hand plus its face-down discards. */
  scoringTiles(seat) {
    return [...this.hands[seat], ...this.discards[seat]];
  }

  /** Whether the 0-0 = 25 option applies to seat: on, and 0-0 among its tiles. */
  blankDoubleCounts(seat) {
    return this.rules.double_blank_25 && holds(this.scoringTiles(seat), [0, 0]);
  }

  /** score.count: the pips of hand plus discards; score.double-blank-25: 0-0 counts 25
   * when no other tile of the seat has a blank, else 0. */
  count(seat) {
    const tiles = this.scoringTiles(seat);
    const total = tiles.reduce((sum, t) => sum + pips(t), 0);
    if (!this.blankDoubleCounts(seat)) return total;
    const otherBlanks = tiles.some((t) => fits(t, 0) && !same(t, [0, 0]));
    return otherBlanks ? total : total + 25;
  }

  /** score.rank: lower count first; a seat with no tiles first among equals; then the
   * lowest tile by pips, then its low half. */
  rankKey(seat) {
    const tiles = this.scoringTiles(seat);
    if (tiles.length === 0) return [this.count(seat), 0, 0, 0];
    const lowest = tiles.reduce((a, b) => (pips(b) < pips(a) || (pips(b) === pips(a) && b[0] < a[0]) ? b : a));
    return [this.count(seat), 1, pips(lowest), lowest[0]];
  }

  winner() {
    const seats = [...Array(this.rules.players).keys()];
    const before = (a, b) => {
      const [x, y] = [this.rankKey(a), this.rankKey(b)];
      const k = x.findIndex((v, i) => v !== y[i]);
      return k >= 0 && x[k] < y[k];
    };
    return seats.reduce((best, seat) => (before(seat, best) ? seat : best));
  }

  /** The points of each side: per seat, or per pair with partnership (settle.*). */
  points(counts, winner) {
    const settlement = this.rules.settlement;
    const points = new Array(this.rules.partnership ? 2 : this.rules.players).fill(0);
    const differences = counts.map((c) => c - counts[winner]);
    const total = differences.reduce((a, b) => a + b, 0);
    if (settlement === "chips") {
      differences.forEach((d, seat) => { points[seat] = -d; });
      points[winner] = total; // settle.chips: the winner collects each difference
    } else if (settlement === "difference") {
      points[winner] = total; // settle.difference: the winner scores the differences
    } else if (settlement === "cumulative") {
      counts.forEach((c, seat) => { points[seat] = c; }); // settle.cumulative
    }
    return points; // settle.per-hand: nobody scores
  }

  /** The rule IDs that explain the result, sorted. */
  resultRules() {
    const rules = this.rules;
    const ids = [`end.${this.ending}`, "score.count", "score.rank", `settle.${rules.settlement}`];
    const deal = `${rules.players}x${rules.hand_size}`;
    if (rules.max_pip !== 6 || !SOURCED_DEALS.includes(deal)) ids.push("deal.unsourced");
    if (this.hands.some((_, seat) => this.blankDoubleCounts(seat))) ids.push("score.double-blank-25");
    if (rules.partnership) ids.push("score.team");
    return ids.sort();
  }

  /** Counts, winner, team, points and reasons of the finished hand. */
  result() {
    const counts = this.hands.map((_, seat) => this.count(seat));
    const winner = this.winner();
    return {
      counts,
      winner,
      winning_team: this.rules.partnership ? winner % 2 : null, // score.team: 0+2 vs 1+3
      points: this.points(counts, winner),
      replay: false,
      rules: this.resultRules(),
    };
  }
}
