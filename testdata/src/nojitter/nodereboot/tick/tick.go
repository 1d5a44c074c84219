// Package tick makes tickers whose first tick comes at a random moment within a period, so
// that agents started together do not act together.
package tick

import (
	"math/rand"
	"time"
)

// Spread returns a channel that ticks once after a random delay between d/2 and 3d/2, then
// every d.
func Spread(src rand.Source, d time.Duration) <-chan time.Time {
	c := make(chan time.Time)
	go func() {
		r := rand.New(src)
		time.Sleep(time.Duration(float64(d)/2 + float64(d)*r.Float64()))
		c <- time.Now()
		for t := range time.Tick(d) {
			c <- t
		}
	}()
	return c
}
