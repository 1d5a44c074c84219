package loops

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"
)

// A parser that goes round on io.EOF to move to the next family, through helpers that hand
// labels to an interface deep down: no remote dependency is near the attempt.

// LabelSink receives labels; implementations build them in memory.
type LabelSink interface {
	Add(name, value string) error
}

type family struct {
	name   string
	labels map[string]string
}

type decoder struct {
	r        *bytes.Reader
	families []family
	i        int
}

func (d *decoder) nextFamily() error {
	if d.i >= len(d.families) {
		return io.EOF
	}
	d.i++
	return nil
}

func (d *decoder) nextMetric() error {
	if d.r.Len() == 0 {
		return io.EOF
	}
	_, err := d.r.ReadByte()
	return err
}

func (d *decoder) labelsInto(sink LabelSink) error {
	for k, v := range d.families[d.i-1].labels {
		if err := sink.Add(k, v); err != nil {
			return fmt.Errorf("label %s: %w", k, err)
		}
	}
	return nil
}

type parser struct {
	dec  *decoder
	sink LabelSink
	name string
}

func (p *parser) update() error { return p.fill() }

func (p *parser) fill() error { return p.dec.labelsInto(p.sink) }

// Next moves to the next metric, and to the next family when this one is empty.
func (p *parser) Next() (string, error) {
	if err := p.dec.nextFamily(); err != nil {
		return "", err
	}
	if err := p.dec.nextMetric(); err != nil {
		if errors.Is(err, io.EOF) {
			return p.Next() // an empty family: go on to the next one
		}
		return "", err
	}
	if err := p.update(); err != nil {
		return "", err
	}
	return p.name, nil
}

// replaceFile retries a rename through a closure: local work.
func replaceFile(tmp, dst string) error {
	rename := func() error { return os.Rename(tmp, dst) }
	var err error
	for range 5 {
		if err = rename(); err == nil {
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("replace %s: %w", dst, err)
}
