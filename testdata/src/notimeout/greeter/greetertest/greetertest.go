// Package greetertest helps the tests of package greeter (and imports it): its calls talk to
// test servers.
package greetertest

import (
	"net/http"

	"notimeout/greeter"
)

// ---- Not reported ----

func Get(url string) (*http.Response, error) {
	return http.Get(url + "/" + greeter.Hello)
}
