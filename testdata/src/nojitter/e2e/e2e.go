// Package e2e drives a system under test: its waits are not the product's.
package e2e

import (
	"net/http"
	"time"
)

func WaitForProxy(hc *http.Client, url string) {
	for i := 0; i < 10; i++ {
		if resp, err := hc.Get(url); err == nil {
			resp.Body.Close()
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}
