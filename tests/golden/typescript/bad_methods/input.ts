/**
 * @method sideways
 * @direction Client → Moon
 * @messageType Request
 */
/**
 * @method weird
 * @direction Client → Server
 * @messageType Shout
 */
/**
 * @method noParams
 * @direction Client → Server
 * @messageType Request
 */
