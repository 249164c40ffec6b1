// encoding/json's reading, one construct per type: keys of named string and integer
// kinds, unexported fields, types and constants, null into values, numbers in any.
package jsonsem



// ResourceID names a resource.
type ResourceID string

// Port is a port number.
type Port uint16

// Level is a named named string.
type Level ResourceID

// Kind of a resource.
type Kind string

const (
	KindFile Kind = "file"
	KindDir  Kind = "dir"
	kindTemp Kind = "temp"
)

const maxDepth = 4

// MaxItems bounds a listing.
const MaxItems = maxDepth * 10

type base struct {
	Origin string `json:"origin"`
	weight int
}

type note struct {
	Text string `json:"text"`
}

type unused struct {
	X int `json:"x"`
}

// Handle carries process state only.
type Handle struct {
	conn   int
	closed bool
}

// Resource is what a listing holds.
type Resource struct {
	base
	ID      ResourceID           `json:"id"`
	Kind    Kind                 `json:"kind"`
	Size    int64                `json:"size"`
	Ratio   float64              `json:"ratio"`
	Enabled bool                 `json:"enabled"`
	Tags    []string             `json:"tags,omitempty"`
	Note    note                 `json:"note"`
	Meta    any                  `json:"meta"`
	secret  string
}

// Listing keys resources by their named key types.
type Listing struct {
	ByID    map[ResourceID]Resource `json:"byId"`
	ByPort  map[Port]string         `json:"byPort"`
	ByLevel map[Level]int           `json:"byLevel,omitempty"`
	Extra   map[string]any          `json:"extra"`
	Count   int                     `json:"count"`
}
