// Package uselib sees lib's generator and sink through facts.
package uselib

import (
	"net/http"

	"keys/lib"
)

func use(req *http.Request) *http.Request { // want use:`mints a key: lib.NewKey` use:"generator: lib.NewKey"
	return lib.Keyed(req, "order-"+lib.NewKey()) // want `lib.NewKey: sent as header "Idempotency-Key" via Keyed; returned`
}
