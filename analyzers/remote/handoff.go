package remote

import (
	"go/token"
	"go/types"
	"slices"

	"golang.org/x/tools/go/ssa"

	"github.com/idemlint/idemlint/analyzers/internal/typeis"
)

// A request handed to a goroutine: a client that queues each request, with a channel for its
// answer, on a channel of its own (c.sendChan <- &request{..., recvChan: make(chan response,
// 1)}) and lets a loop of the package write it to the connection (case req := <-c.sendChan:
// c.conn.Write(...)) leaves the process as surely as one that writes it itself: ZooKeeper's
// client, and other wire-protocol clients that multiplex one connection.

// A handoff is what the package does with the channels its struct fields hold: by field, the
// functions that receive from one, and those that send on one a request carrying a channel
// for its answer.
type handoff struct {
	receivers, senders map[*types.Var][]*ssa.Function
}

// indexHandoffs walks the package's functions once for their channel operations on fields.
func (r *reacher) indexHandoffs() {
	h := handoff{receivers: make(map[*types.Var][]*ssa.Function), senders: make(map[*types.Var][]*ssa.Function)}
	for _, fn := range r.pkgFuncs {
		for _, b := range fn.Blocks {
			for _, instr := range b.Instrs {
				var recvs []ssa.Value
				var sends [][2]ssa.Value // channel, value
				switch x := instr.(type) {
				case *ssa.UnOp:
					if x.Op == token.ARROW {
						recvs = append(recvs, x.X)
					}
				case *ssa.Send:
					sends = append(sends, [2]ssa.Value{x.Chan, x.X})
				case *ssa.Select:
					for _, st := range x.States {
						switch st.Dir {
						case types.RecvOnly:
							recvs = append(recvs, st.Chan)
						case types.SendOnly:
							sends = append(sends, [2]ssa.Value{st.Chan, st.Send})
						}
					}
				}
				for _, ch := range recvs {
					if f := chanField(ch); f != nil {
						h.receivers[f] = append(h.receivers[f], fn)
					}
				}
				for _, s := range sends {
					if f := chanField(s[0]); f != nil && typeis.HoldsChan(s[1].Type()) {
						h.senders[f] = append(h.senders[f], fn)
					}
				}
			}
		}
	}
	r.handoff = h
}

// handsOff marks remote, in r.of, the functions that queue a request on a field's channel
// from which a function of the package that may leave the process receives. It reports
// whether it marked one.
func (r *reacher) handsOff() bool {
	changed := false
	for f, senders := range r.handoff.senders {
		for _, fn := range senders {
			if r.of[fn] == ReachRemote {
				continue
			}
			if slices.ContainsFunc(r.handoff.receivers[f], func(recv *ssa.Function) bool { return recv != fn && r.of[recv] == ReachRemote }) {
				r.of[fn] = ReachRemote
				changed = true
			}
		}
	}
	return changed
}

// chanField returns the struct field a channel value is loaded from (c.sendChan), or nil.
func chanField(ch ssa.Value) *types.Var {
	load, ok := ch.(*ssa.UnOp)
	if !ok || load.Op != token.MUL {
		return nil
	}
	fa, ok := load.X.(*ssa.FieldAddr)
	if !ok {
		return nil
	}
	ptr, ok := fa.X.Type().Underlying().(*types.Pointer) // not a type parameter's
	if !ok {
		return nil
	}
	st, ok := ptr.Elem().Underlying().(*types.Struct)
	if !ok || fa.Field >= st.NumFields() {
		return nil
	}
	return st.Field(fa.Field)
}
