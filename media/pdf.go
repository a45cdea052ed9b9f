package media

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// pdfTail is how much of a PDF's end is read for its trailer: the spec puts %%EOF at the end and
// startxref just before it; 1 KiB leaves room for trailing whitespace and comments.
const pdfTail = 1024

var (
	startxrefRe  = regexp.MustCompile(`startxref\s+(\d{1,12})\s+%%EOF`)
	xrefStreamRe = regexp.MustCompile(`^\d{1,10}\s+\d{1,5}\s+obj\b`)
)

// probePDF checks a PDF's skeleton (ISO 32000-1 §7.5): the header, then at the end startxref with
// the offset of a cross-reference section (a table "xref", or a stream "N G obj") that lies
// inside the file, then %%EOF. "%PDF-1.4" followed by junk fails. Pages and objects are not
// parsed: that is the networks' business, and a full parser (pdfcpu) would grow the binary for a
// check this one makes.
func probePDF(r io.ReaderAt, size int64) error {
	head := make([]byte, 8)
	if _, err := r.ReadAt(head, 0); err != nil || !bytes.HasPrefix(head, []byte("%PDF-")) {
		return errors.New("no %PDF- header")
	}
	n := min(size, pdfTail)
	tail := make([]byte, n)
	if _, err := r.ReadAt(tail, size-n); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	all := startxrefRe.FindAllSubmatch(tail, -1)
	if len(all) == 0 {
		return errors.New("no startxref … %%EOF at the end")
	}
	off, err := strconv.ParseInt(string(all[len(all)-1][1]), 10, 64)
	if err != nil || off < int64(len("%PDF-1.0")) || off >= size {
		return fmt.Errorf("startxref %s is outside the file", all[len(all)-1][1])
	}
	at := make([]byte, min(64, size-off))
	if _, err := r.ReadAt(at, off); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	if !bytes.HasPrefix(at, []byte("xref")) && !xrefStreamRe.Match(at) {
		return errors.New("startxref does not point at a cross-reference section")
	}
	return nil
}
