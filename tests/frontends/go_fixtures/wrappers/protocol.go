// A package whose unions are custom-marshaled wrappers, as gopls generates them: the types
// (here) and their methods (json.go) live in different files.
package protocol

import "encoding/json"

// Position in a text document.
type Position struct {
	Line      uint32 `json:"line"`
	Character uint32 `json:"character"`
}

// A range in a document.
type Range struct {
	Start Position `json:"start"`
	End   Position `json:"end"`
}

// MarkupContent is formatted text.
type MarkupContent struct {
	Kind  string `json:"kind"`
	Value string `json:"value"`
}

// created for Or [MarkupContent string []string]
type Or_Hover_contents struct {
	Value interface{} `json:"value"`
}

// An id: an integer or a string.
type Or_int32_string struct {
	Value any `json:"value"`
}

// A wrapper that keeps whatever JSON it is given.
type Or_Range_Position struct {
	Value any `json:"value"`
}

// Name is written as its text.
type Name string

// Opaque keeps the bytes it was given; spec.toml declares its wire form.
type Opaque struct {
	raw json.RawMessage
}

// Hover is the result of a hover request.
type Hover struct {
	Contents Or_Hover_contents `json:"contents"`
	ID       Or_int32_string   `json:"id,omitempty"`
	Where    *Or_Range_Position `json:"where,omitempty"`
	Name     Name              `json:"name"`
	Extra    Opaque            `json:"extra"`
}
