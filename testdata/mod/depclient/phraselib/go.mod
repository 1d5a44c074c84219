module example.com/phraselib

go 1.24
