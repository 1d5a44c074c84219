// Package addimport: the fix imports "time" when the file does not.
package addimport

import "net/http"

func get(u string) {
	c := &http.Client{} // want `this http.Client has no Timeout`
	c.Get(u)
}
