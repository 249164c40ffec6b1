"""``codegen init``: a new spec folder with a commented ``spec.toml`` and a starter source.

Phase: entry point helper (writes a new spec; never touches an existing one).
Inputs: a spec id, a source language, the folder to create it in.
Outputs: ``<folder>/<id>/spec.toml`` (every setting commented), a starter source in the
chosen language (two methods, a request and a notification, written the way that
language's frontend reads a method table) and ``examples/methods/initialize.json`` (one
sample that must be accepted, one that must be rejected).
Guarantees: the new spec generates without errors or warnings as created (tested per
language); an existing folder is never overwritten (``ScaffoldError``); the id must be a
usable spec id (letters, digits, ``_`` and ``-``, starting with a letter).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from string import Template

__all__ = ["LANGUAGES", "ScaffoldError", "Starter", "create", "starter"]

LANGUAGES = ("typescript", "rust", "go", "prose")
_ID = re.compile(r"^[A-Za-z][A-Za-z0-9_-]*$")


class ScaffoldError(Exception):
    """The spec cannot be created (bad id, folder exists)."""


@dataclass(frozen=True)
class Starter:
    source_name: str
    source: str
    roles: tuple[str, str]
    comment: str  # how this language's sources declare methods
    # spec.toml's [methods] entries the source's own way cannot say (every starter has
    # the same two methods: an initialize request and a log notification).
    methods: str = ""


_SPEC_TOML = Template("""\
# The $title: what codegen reads to generate typed Python bindings (pydantic), a JSON
# Schema, a stub server and client, and docs.  `codegen generate $id` writes them to the
# output folder of your project ([tool.codegen] output in pyproject.toml, default
# generated/), as <output>/$id/.

[spec]
id = "$id"                 # the generated folder and the name on the command line
title = "$title"
version = "0.1"            # the protocol's version (the package's too, when PEP 440)
language = "$language"     # typescript | rust | go | prose
# The source files, relative to this folder.  $comment
sources = ["$source"]
# The two peers.  Method directions name them ("client → server").
roles = ["$role_a", "$role_b"]
# Keys a peer sends that a type does not declare: "allow" keeps them (as TypeScript,
# serde and encoding/json readers do), "forbid" rejects such a message.
extra_keys = "allow"
docs = "What this protocol is for, in one line (the docs' first sentence)."

[transport]
# "jsonrpc-2.0", or "http-post-envelope" ({method, params} in, {result} or {error} out),
# or "event-envelope" (DAP's seq/type/command/arguments/body requests, responses and
# events over stdio; [transport.fields] renames its keys).
kind = "jsonrpc-2.0"
# How the stub server is reached (`codegen serve $id`; the first is the default):
# "ndjson-stdio" (one JSON message per line), "content-length-stdio" (each message after
# a "Content-Length: N" header, as editor and debugger protocols frame it), "websocket",
# "http-post".
framings = ["ndjson-stdio", "websocket"]

[python]
package = "$package"            # the import name of the generated package
distribution = "$distribution"  # its project name (pip install)

# The protocol's own error codes: the generated package names them, the stub's --fail
# uses them (`codegen serve $id --fail initialize=-32001`).  For example:
# [errors]
# -32001 = "UnsupportedVersion"

# A type the sources import from a file you do not have is an error unless declared here;
# declared, it is read as any JSON value, with a warning (an error with --strict):
# [external.Envelope]
# module = "./envelope.js"
# reason = "defined in envelope.ts, which is not part of this spec"
$methods""")

_TYPESCRIPT = Starter(
    "protocol.ts",
    """\
// A starter protocol: edit freely, then `codegen generate`.

/**
 * Opens a session; the first message a client sends.
 *
 * @method initialize
 * @direction Client → Server
 * @messageType Request
 * @throws `UnsupportedVersion` (`-32001`) when the server cannot speak that version.
 */
export interface InitializeParams {
\t/** The protocol version the client speaks. */
\tprotocolVersion: number;
\t/** A name for the client, shown in logs. */
\tclientName?: string;
}

/** The answer to `initialize`. */
export interface InitializeResult {
\t/** The protocol version the server speaks. */
\tprotocolVersion: number;
\t/** What the server can do. */
\tcapabilities: string[];
}

/**
 * Tells the client that something happened.
 *
 * @method log
 * @direction Server → Client
 * @messageType Notification
 */
export interface LogParams {
\t/** How serious it is. */
\tlevel: 'info' | 'warning' | 'error';
\t/** What happened. */
\tmessage: string;
}
""",
    ("client", "server"),
    "Methods are interfaces tagged @method, @direction and @messageType; `<Method>Params` "
    "and `<Method>Result` pair with them by name.",
)

_RUST = Starter(
    "schema.rs",
    """\
//! A starter protocol: edit freely, then `codegen generate`.
use serde::{Deserialize, Serialize};

/// Opens a session; the first message a client sends.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeParams {
    /// The protocol version the client speaks.
    pub protocol_version: u32,
    /// A name for the client, shown in logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_name: Option<String>,
}

/// The answer to `initialize`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResponse {
    /// The protocol version the server speaks.
    pub protocol_version: u32,
    /// What the server can do.
    pub capabilities: Vec<String>,
}

/// Tells the client that something happened (a notification: spec.toml says so).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LogParams {
    /// How serious it is.
    pub level: LogLevel,
    /// What happened.
    pub message: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogLevel {
    Info,
    Warning,
    Error,
}

/// An empty answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct LogResponse;

// The method table: each entry is a JSON-RPC request (handler fn, "wire name", Params,
// has params, Response, has a response: `false` answers null).  The first argument names
// the role that handles the entries; the other role sends them.
acp_peer!(
    Server,
    ServerRequest,
    AnyServerRequest,
    AnyServerResult,
    SERVER_METHODS,
    (initialize, "initialize", InitializeParams, true, InitializeResponse, true)
);

acp_peer!(
    Client,
    ClientRequest,
    AnyClientRequest,
    AnyClientResult,
    CLIENT_METHODS,
    (log, "log", LogParams, true, LogResponse, false)
);
""",
    ("client", "server"),
    "Methods are the entries of `acp_peer!` invocations (the first argument names the "
    "role that handles them).",
    """
# acp_peer! declares requests; this makes `log` a notification (sent, never answered).
[methods."log"]
kind = "notification"
""",
)

_GO = Starter(
    "protocol.go",
    """\
// Package starter is a starter protocol: edit freely, then `codegen generate`.
package starter

// The method table: each Method* constant is a method; <Name>Params and <Name>Result
// pair with it by name, and the trailing comment says who sends it.
const (
\tMethodInitialize = "initialize" // client → server request
\tMethodLog        = "log"        // server → client notification
)

// InitializeParams opens a session; the first message a client sends.
type InitializeParams struct {
\t// The protocol version the client speaks.
\tProtocolVersion int `json:"protocolVersion"`
\t// A name for the client, shown in logs.
\tClientName string `json:"clientName,omitempty"`
}

// InitializeResult is the answer to initialize.
type InitializeResult struct {
\t// The protocol version the server speaks.
\tProtocolVersion int `json:"protocolVersion"`
\t// What the server can do.
\tCapabilities []string `json:"capabilities"`
}

// LogParams tells the client that something happened.
type LogParams struct {
\t// How serious it is.
\tLevel string `json:"level"` // "info", "warning" or "error"
\t// What happened.
\tMessage string `json:"message"`
}
""",
    ("client", "server"),
    "Methods are `Method*` string constants; `<Name>Params` / `<Name>Result` pair with "
    "them by name.",
)

_PROSE = Starter(
    "protocol.md",
    """\
# A starter protocol

Edit freely, then `codegen generate`. Each method is a section: the prose says who sends
it, a `Request:` line names its params, a `Response:` line its result, and the types are
TypeScript in fenced blocks.

## Methods

### Initialize

The initialize request is sent by the client to the server to open a session.

Request: { method: "initialize", params: InitializeParams }

```ts
interface InitializeParams {
  /** The protocol version the client speaks. */
  protocolVersion: number
  /** A name for the client, shown in logs. */
  clientName?: string
}
```

Response: { result: InitializeResult }

```ts
interface InitializeResult {
  /** The protocol version the server speaks. */
  protocolVersion: number
  /** What the server can do. */
  capabilities: string[]
}
```

### Log

The log notification is sent by the server to the client when something happened; it
has no response (spec.toml's [methods] table declares it).

```ts
interface LogParams {
  /** How serious it is. */
  level: "info" | "warning" | "error"
  /** What happened. */
  message: string
}
```
""",
    ("client", "server"),
    "Methods are sections with `Request:` and `Response:` lines.",
    """
# A prose method section needs a Response: line; a notification is declared here.
[methods."log"]
kind = "notification"
direction = "server → client"
params = "LogParams"
""",
)

_STARTERS = {
    "typescript": _TYPESCRIPT,
    "rust": _RUST,
    "go": _GO,
    "prose": _PROSE,
}

_SAMPLES = {
    "target": {"method": "initialize"},
    "samples": [
        {
            "name": "minimal",
            "part": "params",
            "expect": "accept",
            "value": {"protocolVersion": 1},
        },
        {
            "name": "version-as-text",
            "part": "params",
            "expect": "reject",
            "why": "protocolVersion is a number; a string is not coerced",
            "value": {"protocolVersion": "1"},
        },
    ],
}


def starter(language: str) -> Starter:
    return _STARTERS[language]


def create(folder: Path, spec_id: str, language: str) -> list[Path]:
    """Create ``folder/spec_id/``; the files written, spec.toml first."""
    if not _ID.match(spec_id):
        raise ScaffoldError(
            f"{spec_id!r} is not a usable spec id (letters, digits, '_' and '-', "
            "starting with a letter)"
        )
    if language not in _STARTERS:
        raise ScaffoldError(f"unknown language {language!r} ({', '.join(LANGUAGES)})")
    target = folder / spec_id
    if target.exists():
        raise ScaffoldError(f"{target} already exists; choose another id or folder")
    chosen = _STARTERS[language]
    package = re.sub(r"\W", "_", spec_id.lower()) + "_protocol"
    toml = _SPEC_TOML.substitute(
        id=spec_id,
        title=f"{spec_id} protocol",
        language=language,
        source=chosen.source_name,
        comment=chosen.comment,
        role_a=chosen.roles[0],
        role_b=chosen.roles[1],
        package=package,
        distribution=package.replace("_", "-"),
        methods=chosen.methods,
    )
    files = {
        target / "spec.toml": toml,
        target / chosen.source_name: chosen.source,
        target
        / "examples"
        / "methods"
        / "initialize.json": json.dumps(_SAMPLES, indent=2)
        + "\n",
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)
