// Package suppressed: //idemlint:ignore directives.
package suppressed

import (
	"context"
	"net/http"
)

func onLine(u string) {
	http.Get(u) //idemlint:ignore notimeout the health check runs under the supervisor's watchdog
}

//idemlint:ignore notimeout a one-shot CLI: the user interrupts it
func wholeFunction(u string) {
	http.Get(u)
	req, _ := http.NewRequestWithContext(context.Background(), "GET", u, nil)
	http.DefaultClient.Do(req)
}

// A directive for another analyzer does not silence this one.
func otherAnalyzer(u string) {
	//idemlint:ignore keyinloop not about keys
	http.Get(u) // want `http\.Get uses http\.DefaultClient \(no timeout\), so a stalled server hangs this call; use a client with a Timeout`
}
