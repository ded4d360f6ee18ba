// The shapes of gaple's protocol v1 (PROTOCOL.md and protocol/*.schema.json, which `gaple spec
// --out DIR` writes), for TypeScript and for `// @ts-check` in adapter.mjs:
//
//   import type { Engine, StateReply } from "./protocol";
//
// Each message is tagged with its schema; gaple's tests hold these fields to the schemas'
// properties, a field marked "?" to one the schema does not require.

/** A tile as the protocol writes it: "0-3", low half first in what an engine shows. */
export type TileText = string;
/** A move as the protocol writes it: "lead 0-0", "place 0-3 left", "pass", "discard 4-4". */
export type MoveText = string;
export type Level = "line" | "turns" | "count" | "points" | "rules";
export type LeadRule = "double-blank" | "double" | "any-tile";
export type Settlement = "per-hand" | "chips" | "difference" | "cumulative" | "partnership";
export type StakeBase = "all" | "blocker-pair" | "other-pair";
/** A rule ID of the rules reference, such as "play.match-end". */
export type RuleId = string;
/** The code of a rejection, such as "no-match" (the rejected schema lists them). */
export type ErrorCode = string;

/** spec/protocol $defs/rules: every option of the ruleset. */
export interface Rules {
  max_pip: number;
  players: number;
  hand_size: number;
  partnership: boolean;
  first_lead: LeadRule;
  later_lead: LeadRule;
  forbidden_leads: TileText[];
  blocked_action: "pass" | "discard";
  double_blank_25: boolean;
  settlement: Settlement;
  target: number | null;
  match_hands: number | null;
  challenge_tie: "replay" | "blocker-loses";
  challenge_win_base: StakeBase;
  challenge_win_multiplier: number;
  challenge_loss_base: StakeBase;
  challenge_loss_multiplier: number;
  top_double_bonus: number;
  blank_double_bonus: number;
  dead_double_debit: boolean;
  closing_any_double: boolean;
}

/** spec/protocol $defs/deal: the tiles of each seat, the turned-up starter, the tiles set
 * aside and the seat the opening starts from. */
export interface Deal {
  hands: TileText[][];
  starter: TileText | null;
  set_aside: TileText[];
  first_seat: number;
}

// -- requests, from the runner -------------------------------------------------------------

/** spec/protocol/hello.schema.json */
export interface Hello {
  type: "hello";
  protocol: 1;
}

/** spec/protocol/start.schema.json */
export interface Start {
  type: "start";
  case: string;
  rules: Rules;
  deal: Deal;
  first_hand: boolean;
}

/** spec/protocol/state.schema.json */
export interface State {
  type: "state";
}

/** spec/protocol/act.schema.json */
export interface Act {
  type: "act";
  seat: number;
  move: MoveText;
}

/** spec/protocol/result.schema.json */
export interface Result {
  type: "result";
}

/** spec/protocol/batch.schema.json: the requests of a case, in order. */
export interface Batch {
  type: "batch";
  requests: (Start | State | Act | Result)[];
}

/** spec/protocol/bye.schema.json: the request, and the reply it may get. */
export interface Bye {
  type: "bye";
}

export type Request = Hello | Start | State | Act | Result | Batch | Bye;

// -- replies, from the adapter --------------------------------------------------------------

/** What an engine declares it plays: cases outside it are not sent (PROTOCOL.md). */
export interface Plays {
  preset?: string;
  options?: Record<string, unknown[]>;
  situation?: Record<string, string[]>;
  features?: string[];
}

/** spec/protocol/hello-reply.schema.json */
export interface HelloReply {
  type: "hello";
  protocol: 1;
  name: string;
  version?: string;
  levels: Level[];
  error_codes: boolean;
  batch?: boolean;
  plays?: Plays;
}

/** spec/protocol/started.schema.json */
export interface Started {
  type: "started";
}

/** spec/protocol/unsupported.schema.json */
export interface Unsupported {
  type: "unsupported";
  reason: string;
}

/** spec/protocol/state-reply.schema.json: what the engine shows; pieces and ends as pips. */
export interface StateReply {
  type: "state";
  to_act: number | null;
  line: [number, number][];
  ends: [number, number] | null;
  legal: MoveText[];
  hand_sizes: number[];
  discard_counts: number[];
  ending: "out" | "blocked" | null;
}

/** spec/protocol/ok.schema.json */
export interface Ok {
  type: "ok";
}

/** spec/protocol/rejected.schema.json */
export interface Rejected {
  type: "rejected";
  code: ErrorCode | null;
  rule?: RuleId;
  message?: string;
}

/** spec/protocol/result-reply.schema.json */
export interface ResultReply {
  type: "result";
  counts: number[];
  winner: number | null;
  winning_team: number | null;
  points: number[];
  replay: boolean;
  rules?: RuleId[];
}

/** spec/protocol/batch-reply.schema.json: one reply per request, in order. */
export interface BatchReply {
  type: "batch";
  replies: (Started | Unsupported | StateReply | Ok | Rejected | ResultReply | ErrorReply)[];
}

/** spec/protocol/error.schema.json */
export interface ErrorReply {
  type: "error";
  message: string;
}

export type Reply =
  | HelloReply
  | Started
  | Unsupported
  | StateReply
  | Ok
  | Rejected
  | ResultReply
  | BatchReply
  | ErrorReply
  | Bye;

// -- the engine's calls: the block of adapter.mjs marked FILL IN HERE ----------------------

/** A tile as the adapter hands it to the engine: [low, high]. */
export type Tile = [number, number];

/** A move as the adapter hands it to the engine, and as observe lists the legal ones. */
export type Move =
  | { kind: "lead" | "discard"; tile: Tile }
  | { kind: "place"; tile: Tile; end: "left" | "right" }
  | { kind: "pass" };

/** The rules as start gets them: every option, banned leads as tiles. */
export type EngineRules = Omit<Rules, "forbidden_leads"> & { forbidden_leads: Tile[] };

/** The deal as start gets it (the tiles set aside are checked, not passed on). */
export interface EngineDeal {
  hands: Tile[][];
  starter: Tile | null;
  first_seat: number;
}

/** What observe returns: the state reply's fields, the legal moves as moves. */
export type Observed = Omit<StateReply, "type" | "legal"> & { legal: Move[] };

/** Why act refused a move: the rejected reply's fields. */
export type Refusal = Omit<Rejected, "type">;

/** The calls into an engine whose hand in play is a Hand. */
export interface Engine<Hand> {
  /** The hello reply's fields but type and protocol (error_codes defaults to true). */
  hello: Omit<HelloReply, "type" | "protocol" | "error_codes" | "batch"> & { error_codes?: boolean };
  /** A new hand, or the reason (a string) the engine does not play these rules. */
  start(rules: EngineRules, deal: EngineDeal, firstHand: boolean): Hand | string;
  observe(hand: Hand): Observed;
  /** null when the move is made; a refused move leaves the hand unchanged. */
  act(hand: Hand, seat: number, move: Move): Refusal | null;
  over(hand: Hand): boolean;
  result(hand: Hand): Omit<ResultReply, "type">;
}
