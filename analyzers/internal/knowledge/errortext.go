package knowledge

import "strings"

// A TextKind is what the text of an error says happened, when a program tells errors apart
// by their text (strings.Contains(err.Error(), "i/o timeout")).
type TextKind uint8

// TextOther: an answer of the service's own ("zone locked", "Code:10205").
const TextOther TextKind = 0

const (
	TextTransport TextKind = 1 << iota // the request did not complete
	Text5xx                            // the server failed
	Text429                            // the server turned the request away for its rate
)

// errorTexts are fragments of the texts that Go's net, net/http, crypto/tls and context
// packages give transport failures, of HTTP's reason phrases, and of the words services use
// for a rate limit, lower-cased.
var errorTexts = []struct {
	fragment string
	kind     TextKind
}{
	{"timeout", TextTransport}, {"timed out", TextTransport}, {"deadline exceeded", TextTransport},
	{"deadlineexceeded", TextTransport}, {"deadline_exceeded", TextTransport},
	{"connection refused", TextTransport}, {"connection reset", TextTransport}, {"connection closed", TextTransport},
	{"connection lost", TextTransport}, {"connection aborted", TextTransport}, {"closed network connection", TextTransport},
	{"server closed idle connection", TextTransport}, {"econnreset", TextTransport}, {"econnrefused", TextTransport},
	{"econnaborted", TextTransport}, {"dial tcp", TextTransport}, {"dial udp", TextTransport}, {"dial unix", TextTransport},
	{"i/o", TextTransport}, {"unreachable", TextTransport}, {"no route to host", TextTransport}, {"network is down", TextTransport},
	{"reset by peer", TextTransport}, {"broken pipe", TextTransport}, {"goaway", TextTransport}, {"stream error", TextTransport},
	{"unexpected eof", TextTransport}, {"no such host", TextTransport}, {"server misbehaving", TextTransport},
	{"tls handshake", TextTransport},
	{"500", Text5xx}, {"502", Text5xx}, {"503", Text5xx}, {"504", Text5xx},
	{"internal server error", Text5xx}, {"bad gateway", Text5xx},
	{"gateway timeout", Text5xx}, {"unavailable", Text5xx}, {"overloaded", Text5xx}, {"server busy", Text5xx}, {"server is busy", Text5xx},
	{"429", Text429}, {"too many requests", Text429}, {"too_many_requests", Text429}, {"rate limit", Text429}, {"ratelimit", Text429},
	{"rate-limit", Text429}, {"throttl", Text429}, {"rate exceeded", Text429},
	// Words a program's own error uses for any passing failure.
	{"temporar", TextTransport | Text5xx}, {"transient", TextTransport | Text5xx},
	{"try again", TextTransport | Text5xx}, {"retry", TextTransport | Text5xx},
}

// ErrorText says what the error text fragment s, searched for in an error's text, names:
// every kind whose known fragment it contains; TextOther when it contains none.
func ErrorText(s string) TextKind {
	s = strings.ToLower(s)
	var k TextKind
	if s == "eof" {
		return TextTransport
	}
	for _, t := range errorTexts {
		if strings.Contains(s, t.fragment) {
			k |= t.kind
		}
	}
	return k
}
