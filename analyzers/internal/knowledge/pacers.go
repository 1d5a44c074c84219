package knowledge

import (
	"strings"

	"github.com/idemlint/idemlint/analyzers/internal/flow"
)

// A Pacer is an SDK whose client, once configured so, waits after each answer until the
// service's rate-limit window lets the next request through: a loop that sends again at once
// on a 429 through such a client waits all the same. It is configured by calling one of
// Methods on the client (directly, or in an option handed to New); a client made without
// that sends at once.
type Pacer struct {
	Pkg     string   // the client's package; its methods send
	New     string   // the function that makes a client
	Methods []string // the client's methods that turn the waiting on
}

var pacers = []Pacer{
	// ns1-go: Client.Do calls RateLimitFunc after each response; RateLimitStrategySleep and
	// RateLimitStrategyConcurrent make it sleep until the window allows; the default does not.
	{Pkg: "gopkg.in/ns1/ns1-go.v2/rest", New: "NewClient", Methods: []string{"RateLimitStrategySleep", "RateLimitStrategyConcurrent"}},
}

// PacerOf returns the pacer whose package fn belongs to, or nil.
func PacerOf(id flow.FuncID) *Pacer {
	for i := range pacers {
		if id.Pkg == pacers[i].Pkg || strings.HasPrefix(id.Pkg, pacers[i].Pkg+"/") {
			return &pacers[i]
		}
	}
	return nil
}

// Configures reports whether id is one of the pacer's methods that turn its waiting on.
func (p *Pacer) Configures(id flow.FuncID) bool {
	if id.Pkg != p.Pkg || id.Recv == "" {
		return false
	}
	for _, m := range p.Methods {
		if id.Name == m {
			return true
		}
	}
	return false
}

// Makes reports whether id makes a client of the pacer.
func (p *Pacer) Makes(id flow.FuncID) bool {
	return id.Pkg == p.Pkg && id.Recv == "" && id.Name == p.New
}
