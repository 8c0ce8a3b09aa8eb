package pipeline

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"slices"
	"strings"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
)

// Every raw input of an archived text keeps its own record: one text may
// come from a .pptx and an .odp, a .docx and an .odt, or twelve URLs serving
// one page, and each answer names the record of the bytes it was sent. A
// record is kept under "records/<text hex>/<key>" (recordKey), so an upload
// of other bytes, or a fetch of another URL, adds a record beside the
// others; a record of the same key (the same bytes uploaded again, the same
// URL fetched again) replaces it. The source's reference
// ("sources/<text hex>") names one of them, the record listings show.
// Archives written before records were kept per input named only that one;
// MigrateRecords keys it.
const (
	recordsPrefix = "records/"
	// recordsLayoutRef marks an archive whose source records are all kept
	// under their keys (MigrateRecords ran to its end).
	recordsLayoutRef = "layout/records-per-input"
)

// MaxSourceRecords is the most records Records returns for one text.
const MaxSourceRecords = 100

// recordKey names a record among its text's records: the hex sha256 of the
// raw input, and for a source fetched by URL, "-" and the hex sha256 of the
// URL asked for, so that each URL keeps its record.
func recordKey(rec *ingest.Record) string {
	k := rec.RawSHA256.Hex()
	if rec.RequestedURL != "" {
		u := sha256.Sum256([]byte(rec.RequestedURL))
		k += "-" + hex.EncodeToString(u[:])
	}
	return k
}

// recordName is the reference of rec among the records of text.
func recordName(text archive.Hash, rec *ingest.Record) string {
	return recordsPrefix + text.Hex() + "/" + recordKey(rec)
}

// sourceOfRef returns the text that a source's reference or one of its
// records' references names, and false for any other reference.
func sourceOfRef(name string) (archive.Hash, bool) {
	hex, ok := strings.CutPrefix(name, sourceRefPrefix)
	if rest, isRecord := strings.CutPrefix(name, recordsPrefix); isRecord {
		hex, _, ok = strings.Cut(rest, "/")
	}
	if !ok {
		return archive.Hash{}, false
	}
	text, err := archive.ParseHash(hex)
	return text, err == nil
}

// keepRecord keeps record, the blob of rec, among the records of text,
// replacing an older record of the same key.
func (p *Pipeline) keepRecord(ctx context.Context, text archive.Hash, rec *ingest.Record, record archive.Hash) error {
	name := recordName(text, rec)
	if cur, err := p.Store.Ref(ctx, name); err == nil && cur == record {
		return nil
	}
	return p.Store.SetRef(ctx, name, record)
}

// keepOlderRecord keeps rec, the blob record, among the records of text
// unless a record of its key is kept already (it is then the newer of the
// two). It reports whether it kept it.
func (p *Pipeline) keepOlderRecord(ctx context.Context, text archive.Hash, rec *ingest.Record, record archive.Hash) (bool, error) {
	name := recordName(text, rec)
	_, err := p.Store.Ref(ctx, name)
	if err == nil {
		return false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return false, err
	}
	return true, p.Store.SetRef(ctx, name, record)
}

// readRecord reads and decodes a source record blob.
func (p *Pipeline) readRecord(ctx context.Context, d archive.Hash) (*ingest.Record, error) {
	b, err := p.readBlob(ctx, d, 1<<20)
	if err != nil {
		return nil, archiveFault("read the source record", err)
	}
	var rec ingest.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		return nil, fault.Wrap(fault.Internal, "decode the source record", err)
	}
	return &rec, nil
}

// SourceRecord is one record of an archived text: its blob's hash and what
// it says, or, when the blob cannot be read, the error code saying why
// (ARCHIVE_CORRUPT, NOT_FOUND) and no record.
type SourceRecord struct {
	RecordHash archive.Hash   `json:"record_hash"`
	Record     *ingest.Record `json:"record,omitempty"`
	ErrorCode  fault.Code     `json:"error_code,omitempty"`
}

// SourceRecords is what the archive holds of where a text came from
// (GET /v1/sources/{hash}).
type SourceRecords struct {
	ArchiveHash archive.Hash `json:"archive_hash"`
	// RecordHash and Record are the source's record, the one listings
	// show (Record).
	RecordHash archive.Hash   `json:"record_hash"`
	Record     *ingest.Record `json:"record"`
	// Records holds every record of the text, one for each raw input it
	// came from (each URL, for fetched sources), in the order of their
	// keys (recordKey), at most MaxSourceRecords of them; RecordCount
	// counts them all.
	Records     []SourceRecord `json:"records"`
	RecordCount int            `json:"record_count"`
}

// Records returns the records of an archived text. A text with no source
// record is NOT_FOUND.
func (p *Pipeline) Records(ctx context.Context, text archive.Hash) (*SourceRecords, error) {
	primary, primaryHash, err := p.Record(ctx, text)
	if err != nil {
		return nil, err
	}
	var names []string
	err = p.refNames(ctx, recordsPrefix+text.Hex()+"/", func(name string) error {
		names = append(names, name)
		return nil
	})
	if err != nil {
		return nil, archiveFault("list the source's records", err)
	}
	// The source's record is listed also when it is not kept under its key:
	// an archive not migrated yet, or written to meanwhile by a process of
	// the version that kept one record per text.
	primaryName := recordName(text, primary)
	if !slices.Contains(names, primaryName) {
		names = append(names, primaryName)
	}
	slices.Sort(names)
	out := &SourceRecords{ArchiveHash: text, RecordHash: primaryHash, Record: primary, RecordCount: len(names),
		Records: make([]SourceRecord, 0, min(len(names), MaxSourceRecords))}
	for _, name := range names[:min(len(names), MaxSourceRecords)] {
		d, err := p.Store.Ref(ctx, name)
		switch {
		case name == primaryName && (errors.Is(err, fs.ErrNotExist) || err == nil && d == primaryHash):
			out.Records = append(out.Records, SourceRecord{RecordHash: primaryHash, Record: primary})
			continue
		case errors.Is(err, fs.ErrNotExist):
			out.RecordCount-- // removed since it was listed
			continue
		case err != nil:
			return nil, archiveFault("find the source's records", err)
		}
		e := SourceRecord{RecordHash: d}
		if rec, err := p.readRecord(ctx, d); err != nil {
			e.ErrorCode = fault.CodeOf(err)
		} else {
			e.Record = rec
		}
		out.Records = append(out.Records, e)
	}
	return out, nil
}

// refNames calls fn for every reference name under prefix, in no
// particular order, reading no reference on a store that lists names.
func (p *Pipeline) refNames(ctx context.Context, prefix string, fn func(name string) error) error {
	switch s := p.Store.(type) {
	case archive.RefNamer:
		return s.ListRefNames(ctx, prefix, fn)
	case archive.RefPager:
		return s.ListRefNamesAfter(ctx, prefix, "", fn)
	}
	return p.Store.ListRefs(ctx, prefix, func(name string, _ archive.Hash) error { return fn(name) })
}

// MigrateRecords keeps the record of every archived source under its key,
// which an archive written before records were kept per raw input lacks,
// and then marks the archive migrated, so that the work is done once: a
// later call reads one reference. It returns how many records it keyed. A
// record that cannot be read is skipped (its source reference still names
// it, and Records lists it from there); an error of the store stops the
// migration unmarked, to be resumed by the next call. Several processes
// may migrate one archive at once.
func (p *Pipeline) MigrateRecords(ctx context.Context) (int, error) {
	if _, err := p.Store.Ref(ctx, recordsLayoutRef); err == nil {
		return 0, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return 0, archiveFault("read the archive's layout", err)
	}
	keyed := 0
	err := p.Store.ListRefs(ctx, sourceRefPrefix, func(name string, record archive.Hash) error {
		text, err := archive.ParseHash(strings.TrimPrefix(name, sourceRefPrefix))
		if err != nil {
			return nil
		}
		rec, err := p.readRecord(ctx, record)
		if err != nil {
			if fault.CodeOf(err) == fault.Unavailable || ctx.Err() != nil {
				return err
			}
			return nil // unreadable for good: left to its source reference
		}
		kept, err := p.keepOlderRecord(ctx, text, rec, record)
		if kept {
			keyed++
		}
		return err
	})
	if err != nil {
		return keyed, archiveFault("key the source records", err)
	}
	// The marker names no blob: it is a name, read for its presence.
	if err := p.Store.SetRef(ctx, recordsLayoutRef, sha256.Sum256([]byte(recordsLayoutRef))); err != nil {
		return keyed, archiveFault("mark the archive's layout", err)
	}
	return keyed, nil
}
