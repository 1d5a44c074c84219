package retryscope

import "fmt"

// HelperFact marks a function that retries the function values passed as its parameters
// Params (indices, receiver excluded). The model infers it for any function that calls a
// func-typed parameter inside its own retry scope, or hands it to another helper.
type HelperFact struct {
	Params   []int
	Attempts Bound
	Wait     WaitKind
	Deadline DeadlineKind
}

func (*HelperFact) AFact() {}

// paramsOr returns the retried parameters of a helper: the fact's, or the table entry's.
func (f *HelperFact) paramsOr(h *helper) []int {
	if f != nil {
		return f.Params
	}
	return []int{h.arg}
}

func (f *HelperFact) String() string {
	return fmt.Sprintf("retry helper for parameter %v: attempts=%s wait=%s deadline=%s", f.Params, f.Attempts, f.Wait, f.Deadline)
}

// RetriesFact marks a function that retries internally: it holds a retry scope, or calls a
// function that does. Where says which scope; Via names the callee it is reached through
// ("" when the scope is in the function itself).
type RetriesFact struct {
	Attempts Bound
	Where    string
	Via      string
}

func (*RetriesFact) AFact() {}

func (f *RetriesFact) String() string {
	s := fmt.Sprintf("retries: %s, attempts=%s", f.Where, f.Attempts)
	if f.Via != "" {
		s += " via " + f.Via
	}
	return s
}

// IteratorFact marks a function that returns a retry iterator: ranging over its result runs
// the loop body once per attempt (see Iterator).
type IteratorFact struct {
	Attempts Bound
	Wait     WaitKind
	Deadline DeadlineKind
}

func (*IteratorFact) AFact() {}

func (f *IteratorFact) String() string {
	return fmt.Sprintf("retry iterator: attempts=%s wait=%s deadline=%s", f.Attempts, f.Wait, f.Deadline)
}
