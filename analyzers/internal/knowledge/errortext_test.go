package knowledge

import "testing"

func TestErrorText(t *testing.T) {
	for text, want := range map[string]TextKind{
		"i/o timeout":           TextTransport,
		"connection reset by":   TextTransport,
		"EOF":                   TextTransport,
		"geofence":              TextOther,
		"over ratelimit":        Text429,
		"Too Many Requests":     Text429,
		"503":                   Text5xx,
		"Gateway Timeout":       Text5xx | TextTransport,
		"Code:10205":            TextOther,
		"zone is locked":        TextOther,
		"temporary failure":     TextTransport | Text5xx,
		"please retry later":    TextTransport | Text5xx,
		"Service Unavailable":   Text5xx,
		"Throttling: slow down": Text429,
		"connection lost":       TextTransport,
		"dial tcp":              TextTransport,
		"unknown dialect":       TextOther,
		"BUSYGROUP":             TextOther,
		"timed out":             TextTransport,
		"ECONNRESET":            TextTransport,
		"DeadlineExceeded":      TextTransport,
		"no route to host":      TextTransport,
		"NOSCRIPT":              TextOther,
		"server is busy":        Text5xx,
	} {
		if got := ErrorText(text); got != want {
			t.Errorf("ErrorText(%q) = %b, want %b", text, got, want)
		}
	}
}
