/**
 * Ends early? """ then __import__("os").system("echo pwned-doc") \
 * <script>alert('doc')</script>
 * <img src=x onerror=alert('img')>
 * <iframe src="javascript:alert('iframe')"></iframe>
 * [click me](javascript:alert('link')) and [spaced](java script:alert(1)) and [ok](https://example.com/a_b)
 * [entity](&#106;avascript:alert('entity'))
 * ![image](javascript:alert('image'))
 * <https://example.com/autolink> and <javascript:alert('autolink')>
 * `code with <b>tags</b> and ``ticks`` inside` and a stray ` backtick <u>x</u>
 * ## A heading in a doc
 * {: onclick="alert('attr')" }
 * [styled](https://example.com){: onclick="alert('inline-attr')" } and *em*{: onmouseover="alert('em')" }
 *
 * A paragraph ending in attributes {: onclick="alert('block-attr')" }
 *
 * Trailing backslash \
 * \N{BULLET} and \x41 and \u0041 and a NUL-free tab	here
 * ```html
 * <script>alert('in fence')</script>
 * ```
 * <!-- comment --> --> &lt;script&gt;alert(1)&lt;/script&gt;
 *
 * [ref]: javascript:alert('ref')
 */
export interface Foo {
	/** Field doc with """ and <script>alert('field')</script> | a pipe */
	"a\"b": string;
	"with space": number;
	"class": string;
	"__init__"?: string;
	"<script>": string;
	kind: "\"\"\"";
	mode: Hostile;
}

/** Lower-case twin of Foo: its docs anchor must be its own. */
export interface foo {
	/** ```mermaid
	 * graph TD; A-->B; click A callback
	 * ``` */
	x: string;
}

/** Values that are code in other languages; D repeats A. */
export enum Hostile {
	/** member doc """ <script>alert('member')</script> */
	A = "\"\"\"",
	B = "<script>alert('enum')</script>",
	C = "back\\slash",
	D = "\"\"\"",
}

/**
 * A method whose wire name is hostile (no params type can be named after it).
 * @method evil/"""<script>alert(1)</script>
 * @direction cli"""ent → ser<b>ver
 * @messageType Notification
 */
export interface Unused {
	x?: string;
}

/**
 * Reads a Foo; the docs """ <script>alert('getfoo')</script>.
 * @method getFoo
 * @direction cli"""ent → ser<b>ver
 * @messageType Request
 * @throws `Bad` (`-32001`) when """ <script>alert('throws')</script>
 */
export interface GetFooParams {
	foo: Foo;
	other: foo;
}
export interface GetFooResult {
	ok: boolean;
	mode?: Hostile;
}
