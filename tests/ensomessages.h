#pragma once

// Two Enso processes written by hand (formats.md (n)), for the tests of
// the marks and the messages between processes. The IDE ($TimeOffset
// 1 s) runs a task over [0, 1000) µs, sends a request (RpcRequest at
// 100 µs), hears back (RpcEvent at 500) and misses a glyph (at 600). The
// Language Server's log ($TimeOffset 0, absolute µs) forwards requests 7
// (at 200, answered at 400) and 8 (at 250, never answered) to the Engine,
// logs a response 9 that no request waits for (at 450) and a message of
// no direction (at 460). In time order the marks are: RpcRequest 100,
// Request 7 200, Request 8 250, Response 7 400, Response 9 450, Sideways
// 460, RpcEvent 500, GlyphCacheMiss 600.
inline const char* ensoMessages()
{
    return R"JSON([
{"X":{"t":0,"d":{"$Process":"Ide"}}},
{"X":{"t":0,"d":{"$TimeOffset":1000000}}},
{"L":{"l":"task (a.rs:1)"}},
{"C":{"p":-1,"t":0,"l":0}},
{"S":{"i":0,"t":0}},
{"X":{"t":100,"d":{"RpcRequest":"executionContext/push"}}},
{"X":{"t":500,"d":{"RpcEvent":"ExpressionUpdates"}}},
{"X":{"t":600,"d":{"GlyphCacheMiss":{"face":"x","variations":"","glyph_id":3}}}},
{"E":{"i":0,"t":1000}}
]
[
{"X":{"t":0,"d":{"$Process":"LanguageServer"}}},
{"X":{"t":0,"d":{"$TimeOffset":0}}},
{"X":{"t":1000200,"d":{"BackendMessage":{"direction":"Request","request_id":"7","endpoint":"executionContext/push"}}}},
{"X":{"t":1000250,"d":{"BackendMessage":{"direction":"Request","request_id":"8","endpoint":"executionContext/push"}}}},
{"X":{"t":1000400,"d":{"BackendMessage":{"direction":"Response","request_id":"7","endpoint":"executionContext/push"}}}},
{"X":{"t":1000450,"d":{"BackendMessage":{"direction":"Response","request_id":"9","endpoint":"file/read"}}}},
{"X":{"t":1000460,"d":{"BackendMessage":{"direction":"Sideways","request_id":"9","endpoint":"file/read"}}}}
]
)JSON";
}
