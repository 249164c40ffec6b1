export interface Started { type: "started"; at: number }
export interface Stopped { type: "stopped"; reason?: string }
/** Peers of a newer revision send events this one does not know: spec.toml opens it. */
export type Event = Started | Stopped;
export interface Circle { radius: number }
export interface Square { side: number }
/** No tag to tell an unknown variant by: declaring it open is a warning (UNI005). */
export type Shape = Circle | Square;
