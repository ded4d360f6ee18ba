// Seeded defects of the template engine, one classic mistake each, which a conformance run
// (and `gaple check` of the engine's transcripts) must catch: `node adapter.mjs --defect NAME`.

import { Game, RIGHT } from "./engine.mjs";

/** Breaks play.match-end: a tile that fits the right end goes there, whichever end the move
 * names, so after the lead 0-0 "place 0-2 left" lays 0-2 on the right. */
class WrongEnd extends Game {
  attach(t, end) {
    super.attach(t, t.includes(this.endValue(RIGHT)) ? RIGHT : end);
  }
}

export const DEFECTS = { "wrong-end": WrongEnd };
