// Package frontendfallback asks a build server to outline a build. An older server answers
// "unsupported request": the loop goes round once with a flag set, and the next round,
// seeing the flag, changes the request (a fallback frontend image) before it asks again. It
// recovers once with a different request; it does not retry the same one: not reported. A
// loop whose flag only changes what it logs asks the same again at once: reported.
package frontendfallback

import (
	"context"
	"errors"
	"log"
	"strings"
)

type SolveRequest struct {
	Frontend    string
	FrontendOpt map[string]string
}

type Result struct{ Metadata map[string][]byte }

type Gateway interface {
	Solve(ctx context.Context, req SolveRequest) (*Result, error)
}

type UnsupportedRequestError struct{ Name string }

func (e *UnsupportedRequestError) Error() string { return "unsupported request " + e.Name }

const fallbackImage = "docker/dockerfile:1.5"

// Outline falls back to an image that knows the subrequest.
func Outline(ctx context.Context, gw Gateway, req SolveRequest, print bool) (*Result, error) {
	var fallback bool
	var firstErr error
	for {
		if print {
			req.FrontendOpt["requestid"] = "frontend.outline"
			if fallback {
				req.FrontendOpt["build-arg:BUILDKIT_SYNTAX"] = fallbackImage
			}
		}
		log.Printf("solving (fallback=%v)", fallback)
		res, err := gw.Solve(ctx, req)
		if err != nil {
			if firstErr != nil {
				return nil, err
			}
			var ue *UnsupportedRequestError
			if !fallback {
				if errors.As(err, &ue) && (ue.Name == "frontend.outline" || ue.Name == "frontend.targets") {
					fallback = true
					firstErr = err
					continue
				}
				if strings.Contains(err.Error(), "unsupported request frontend.outline") {
					fallback = true
					firstErr = err
					continue
				}
			}
			return nil, err
		}
		return res, nil
	}
}

// Targets goes round once on any error with a flag that only changes its log line: the same
// request again, at once.
func Targets(ctx context.Context, gw Gateway, req SolveRequest) (*Result, error) {
	var again bool
	for { // related "frontendfallback.go:72: retry loop" // want `retry loop goes round without waiting, so it hammers a failing dependency; wait with jitter`
		if again {
			log.Printf("asking for targets again")
		}
		res, err := gw.Solve(ctx, req)
		if err != nil {
			if again {
				return nil, err
			}
			again = true
			continue
		}
		return res, nil
	}
}
