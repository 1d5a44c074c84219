package loops

import (
	"bufio"
	"fmt"
	"io"
)

// A dialog asks its user for values on a terminal.
type dialog struct {
	in  *bufio.Scanner
	out io.Writer
}

// ask prompts until the answer validates, or the input ends: each round reads the next line
// the user typed. Not reported.
func (d *dialog) ask(prompt string, validate func(string) error) string {
	for {
		fmt.Fprintf(d.out, "%s ", prompt)
		if !d.in.Scan() {
			if err := d.in.Err(); err != nil {
				fmt.Fprintln(d.out, err)
				continue
			}
			return ""
		}
		answer := d.in.Text()
		if err := validate(answer); err != nil {
			fmt.Fprintf(d.out, "%v\n\n", err)
			continue
		}
		return answer
	}
}
