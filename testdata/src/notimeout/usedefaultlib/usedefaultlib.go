// Package usedefaultlib sets the Timeout of a client another package hands out, which is
// http.DefaultClient: the model cannot tell which client that is, and stays quiet.
package usedefaultlib

import (
	"net/http"
	"time"

	"notimeout/clientlib"
)

// ---- Not reported ----

func configureDefault() { clientlib.Default().Timeout = 10 * time.Second }

func fetchDefault(u string) { http.DefaultClient.Get(u) }
