package loops

import (
	"fmt"
	"strconv"
	"strings"
)

// A frameConn speaks a line protocol over a stream its caller opened (a process's pipes, an
// SSH session): each frame has a length and a text; a length of 0 is a flush that ends a
// message.
type frameConn struct {
	fr frameReader
}

// A frameReader reads one frame: its text and its length (0 for a flush).
type frameReader interface {
	ReadFrame() (string, int, error)
}

// readStatus reads a message that holds one status line, up to its flush. The loop goes round
// after a frame was read and its status parsed: the next frame, not another attempt (a parse
// that fails leaves). Not reported.
func (c *frameConn) readStatus() (int, error) {
	status, seen := 0, false
	for {
		text, n, err := c.fr.ReadFrame()
		if err != nil {
			return 0, fmt.Errorf("reading status: %w", err)
		}
		switch {
		case n == 0:
			if !seen {
				return 0, fmt.Errorf("flush before any status")
			}
			return status, nil
		case !seen:
			ok := false
			if strings.HasPrefix(text, "status ") {
				status, err = strconv.Atoi(text[len("status "):])
				ok = err == nil
			}
			if !ok {
				return 0, fmt.Errorf("want a status line, got %q: %w", text, err)
			}
			seen = true
		default:
			return 0, fmt.Errorf("unexpected frame %q after the status", text)
		}
	}
}

// readArgs reads a status line and the argument lines after it, up to the flush. Not
// reported either.
func (c *frameConn) readArgs() (int, []string, error) {
	var args []string
	status, seen := 0, false
	for {
		text, n, err := c.fr.ReadFrame()
		if err != nil {
			return 0, nil, fmt.Errorf("reading arguments: %w", err)
		}
		if n == 0 {
			if !seen {
				return 0, nil, fmt.Errorf("flush before any status")
			}
			return status, args, nil
		}
		if !seen {
			ok := false
			if rest, found := strings.CutPrefix(text, "status "); found {
				status, err = strconv.Atoi(rest)
				ok = err == nil
			}
			if !ok {
				return 0, nil, fmt.Errorf("want a status line, got %q", text)
			}
			seen = true
			continue
		}
		args = append(args, text)
	}
}
