// Command restyexample lists and creates folders with the SDK of package restyroot, whose
// client is reported where it is made: nothing is reported here.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"

	"notimeout/restyroot"
)

func main() {
	site := flag.String("site", "https://app.example.com/api", "API address")
	project := flag.String("project", "", "project ID")
	flag.Parse()
	if *project == "" {
		fmt.Fprintln(os.Stderr, "usage: restyexample -project ID")
		os.Exit(2)
	}
	client := restyroot.New(restyroot.Config{SiteURL: *site, MaxRetries: 3})
	folders, err := client.Folders.List(*project)
	if err != nil {
		log.Fatalf("list folders: %v", err)
	}
	for _, f := range folders {
		fmt.Println(f.ID, f.Name)
	}
	if _, err := client.Folders.Create(*project, "backups"); err != nil {
		log.Fatalf("create folder: %v", err)
	}
}
