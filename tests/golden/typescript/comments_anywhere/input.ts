/** Levels. */
export type Level =
  // the quiet one
  | "debug" /* between members */
  | /* before a member */ "info"
  // the loud one
  | "error";
export interface Holder {
  // a line comment before a member
  level: Level; // after it
  /* a block */ count: number /* after the type */;
  pair: [string, /* inside a tuple */ number];
  map: Record</* key */ string, /* value */ boolean>;
}
