export interface Measures {
  /**
   * How important, from 0 to 1.
   * @minimum 0
   * @maximum 1
   */
  priority: number;
  /** @minimum 1 */
  count?: number;
  /**
   * @pattern ^[a-z]+$
   * @format slug
   */
  slug: string;
  /** @format uri */
  uri: string;
}
