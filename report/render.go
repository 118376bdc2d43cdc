package report

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"codeberg.org/go-pdf/fpdf"

	"github.com/amlscreen/amlscreen/engine"
	"github.com/amlscreen/amlscreen/query"
	"github.com/amlscreen/amlscreen/record"
)

// Page geometry in millimetres (A4 portrait).
const (
	pageW    = 210.0
	pageH    = 297.0
	marginL  = 18.0
	marginR  = 18.0
	contentW = pageW - marginL - marginR
	topY     = 22.0         // where content starts on pages after the first
	bottomY  = pageH - 20.0 // content stops above the footer
	labelW   = 50.0         // label column of attribute rows
	ptToMM   = 25.4 / 72
)

// Colours.
var (
	navy      = [3]int{31, 58, 95}
	ink       = [3]int{25, 25, 25}
	grey      = [3]int{100, 104, 110}
	ruleGrey  = [3]int{200, 205, 212}
	lightFill = [3]int{238, 242, 247}
	white     = [3]int{255, 255, 255}
	amberFill = [3]int{255, 243, 224}
	amberLine = [3]int{214, 120, 0}
	sampleRed = [3]int{198, 40, 40}
	greenFill = [3]int{232, 245, 233}
	greenLine = [3]int{46, 125, 50}
)

// Text styles.
var (
	stTitle    = style{size: 17, bold: true, color: white}
	stBand     = style{size: 8.5, color: white}
	stH1       = style{size: 12, bold: true, color: navy}
	stH2       = style{size: 8, bold: true, color: grey}
	stHit      = style{size: 11, bold: true, color: navy}
	stLabel    = style{size: 8.5, color: grey}
	stValue    = style{size: 9.5, color: ink}
	stValueB   = style{size: 9.5, bold: true, color: ink}
	stSmall    = style{size: 8, color: grey}
	stCell     = style{size: 8.5, color: ink}
	stCellHead = style{size: 8, bold: true, color: grey}
	stBig      = style{size: 15, bold: true, color: ink}
)

// doc is a report being laid out: the document, the typesetter and the
// current vertical position.
type doc struct {
	pdf   *fpdf.Fpdf
	ts    *typesetter
	y     float64
	links []int // internal link per hit, from the summary table to its section
}

func lead(st style) float64 { return st.size * ptToMM * 1.38 }

// baseline is where text of style st sits in a line of height h starting
// at y.
func baseline(y, h float64, st style) float64 {
	return y + (h-st.size*ptToMM)/2 + st.size*ptToMM*0.8
}

// need starts a new page unless h millimetres still fit on this one.
func (d *doc) need(h float64) {
	if d.y+h > bottomY {
		d.pdf.AddPage()
		d.y = topY
	}
}

// text writes s wrapped into the column [x, x+w], from the current
// position down.
func (d *doc) text(x, w float64, s string, st style) {
	h := lead(st)
	for _, ln := range d.ts.lines(s, st, w) {
		d.need(h)
		d.ts.draw(ln, x, baseline(d.y, h, st), st)
		d.y += h
	}
}

// textRight writes a one-line s ending at x.
func (d *doc) textRight(x, y float64, s string, st style) {
	for _, ln := range d.ts.lines(s, st, pageW) {
		d.ts.draw(ln, x-ln.width, y, st)
		return
	}
}

func (d *doc) fill(c [3]int)   { d.pdf.SetFillColor(c[0], c[1], c[2]) }
func (d *doc) stroke(c [3]int) { d.pdf.SetDrawColor(c[0], c[1], c[2]) }

func (d *doc) rule(y float64, c [3]int, width float64) {
	d.stroke(c)
	d.pdf.SetLineWidth(width)
	d.pdf.Line(marginL, y, pageW-marginR, y)
}

// heading starts a section, keeping it on a page with at least keep
// millimetres of what follows.
func (d *doc) heading(s string, keep float64) {
	d.y += 4
	d.need(lead(stH1) + 2 + keep)
	d.text(marginL, contentW, s, stH1)
	d.rule(d.y+0.5, navy, 0.4)
	d.y += 3
}

// subheading is a small capitalised group title inside a hit.
func (d *doc) subheading(s string) {
	d.y += 1.5
	d.need(lead(stH2) + 2*lead(stValue))
	d.text(marginL, contentW, strings.ToUpper(s), stH2)
	d.y += 0.5
}

// row writes a label and its values side by side; several values are
// bulleted. Values that are URLs become links.
func (d *doc) row(label string, values []string, st style) {
	if len(values) == 0 {
		return
	}
	type vline struct {
		ln     line
		x      float64
		bullet bool
		url    string
	}
	valX, valW := marginL+labelW, contentW-labelW
	var vls []vline
	for _, v := range values {
		indent := 0.0
		if len(values) > 1 {
			indent = 3.5
		}
		url := ""
		if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") {
			url = v
		}
		for i, ln := range d.ts.lines(v, st, valW-indent) {
			vls = append(vls, vline{ln: ln, x: valX + indent, bullet: i == 0 && len(values) > 1, url: url})
		}
	}
	lls := d.ts.lines(label, stLabel, labelW-3)
	h := lead(st)
	n := max(len(vls), len(lls))
	for i := 0; i < n; i++ {
		d.need(h)
		if i < len(lls) {
			d.ts.draw(lls[i], marginL, baseline(d.y, h, st), stLabel)
		}
		if i < len(vls) {
			vl := vls[i]
			if vl.bullet {
				for _, b := range d.ts.lines("•", st, 5) {
					d.ts.draw(b, valX, baseline(d.y, h, st), st)
				}
			}
			d.ts.draw(vl.ln, vl.x, baseline(d.y, h, st), st)
			if vl.url != "" {
				d.pdf.LinkString(vl.x, d.y, vl.ln.width, h, vl.url)
			}
		}
		d.y += h
	}
	d.y += 0.8
}

// column of a table.
type column struct {
	title string
	width float64
}

// table writes a header row and rows of cells, wrapping cells in their
// column and repeating the header after a page break. link, when not nil,
// gives an internal link id per row (0 for none).
func (d *doc) table(cols []column, rows [][]string, link func(i int) int) {
	pad := 1.2
	header := func() {
		h := lead(stCellHead) + 1.5
		d.fill(lightFill)
		d.pdf.Rect(marginL, d.y, contentW, h, "F")
		x := marginL
		for _, c := range cols {
			for _, ln := range d.ts.lines(c.title, stCellHead, c.width-2*pad) {
				d.ts.draw(ln, x+pad, baseline(d.y, h, stCellHead), stCellHead)
				break
			}
			x += c.width
		}
		d.y += h
	}
	d.need(3 * lead(stCell))
	header()
	h := lead(stCell)
	for i, r := range rows {
		cells := make([][]line, len(cols))
		n := 1
		for j, c := range cols {
			if j < len(r) {
				cells[j] = d.ts.lines(r[j], stCell, c.width-2*pad)
				n = max(n, len(cells[j]))
			}
		}
		rowH := float64(n)*h + 1.2
		if d.y+rowH > bottomY {
			d.pdf.AddPage()
			d.y = topY
			header()
		}
		x := marginL
		for j, c := range cols {
			for k, ln := range cells[j] {
				d.ts.draw(ln, x+pad, baseline(d.y+0.6+float64(k)*h, h, stCell), stCell)
			}
			x += c.width
		}
		if link != nil {
			if id := link(i); id != 0 {
				d.pdf.Link(marginL, d.y, contentW, rowH, id)
			}
		}
		d.y += rowH
		d.rule(d.y, ruleGrey, 0.15)
	}
}

// box draws a filled, bordered box of height h at the current position.
func (d *doc) box(h float64, fillC, lineC [3]int) {
	d.fill(fillC)
	d.stroke(lineC)
	d.pdf.SetLineWidth(0.5)
	d.pdf.Rect(marginL, d.y, contentW, h, "FD")
	d.fill(lineC)
	d.pdf.Rect(marginL, d.y, 2.2, h, "F")
}

// build lays out the whole report.
func build(in Input, faces []*face) (*fpdf.Fpdf, error) {
	res := Filter(in.Result)
	q := in.Query
	id := in.ID
	if id == "" {
		id = ID(q, in.Time, in.Version)
	}
	at := in.Time.UTC()
	sources, known := searched(in)
	srcByID := make(map[string]record.Source, len(in.Sources))
	for _, s := range in.Sources {
		srcByID[s.Source] = s
	}
	version := in.Version
	if version == "" {
		version = "not recorded"
	}

	pdf := fpdf.New("P", "mm", "A4", "")
	pdf.SetCreationDate(at)
	pdf.SetModificationDate(at)
	pdf.SetCatalogSort(true)
	pdf.SetCompression(true)
	pdf.SetAutoPageBreak(false, 0)
	pdf.SetMargins(marginL, topY, marginR)
	pdf.SetTitle("AML screening report "+id, true)
	pdf.SetSubject(clean("Screening of "+queryText(q)), true)
	pdf.SetCreator("amlscreen", true)
	pdf.SetProducer("amlscreen (go-pdf/fpdf)", true)
	pdf.SetLang("en")
	pdf.AliasNbPages("{nb}")

	d := &doc{pdf: pdf, ts: newTypesetter(pdf, faces)}
	pdf.SetHeaderFuncMode(func() {
		if pdf.PageNo() == 1 {
			return
		}
		y := 12.0
		for _, ln := range d.ts.lines("AML screening report · "+queryText(q), stSmall, contentW-60) {
			d.ts.draw(ln, marginL, y, stSmall)
			break
		}
		d.textRight(pageW-marginR, y, id, stSmall)
		d.rule(14, ruleGrey, 0.2)
	}, true)
	pdf.SetFooterFunc(func() {
		y := pageH - 12
		if in.Sample {
			d.watermark(SampleMark)
			// The mark again as a line of text, which extractors and
			// screen readers read where they skip a turned watermark.
			st := style{size: 8, bold: true, color: sampleRed}
			for _, ln := range d.ts.lines(SampleMark+": generated records, not the sanction, PEP and criminal lists", st, contentW) {
				d.ts.draw(ln, marginL, y+4.5, st)
				break
			}
		}
		d.rule(y-4, ruleGrey, 0.2)
		left := fmt.Sprintf("Report %s · Database version %s", id, version)
		for _, ln := range d.ts.lines(left, stSmall, contentW-30) {
			d.ts.draw(ln, marginL, y, stSmall)
			break
		}
		page := fmt.Sprintf("Page %d of {nb}", pdf.PageNo())
		for _, ln := range d.ts.lines(page, stSmall, 40) {
			d.ts.draw(ln, pageW-marginR-d.ts.width("Page 000 of 000", stSmall), y, stSmall)
			break
		}
	})

	pdf.AddPage()
	d.cover(in, q, res, id, at, version, sources, known)
	d.hits(q, res, srcByID)
	d.casework(in.Casework)
	d.signOff()
	if known {
		d.sourceList(sources)
	}

	if err := pdf.Error(); err != nil {
		return nil, fmt.Errorf("report: layout: %w", err)
	}
	return pdf, nil
}

// searched lists the sources a report names as searched: the reportable
// ones of in.Sources, or the ids of the query, sorted by id. known is false
// when neither says which sources there were (no catalogue and a query
// over every source).
func searched(in Input) (out []record.Source, known bool) {
	switch {
	case in.Sources != nil:
		for _, s := range in.Sources {
			if (s.SourceType == "" || Reportable(s.SourceType)) && (in.Query.Sources == nil || in.Query.Sources[s.Source]) {
				out = append(out, s)
			}
		}
	case in.Query.Sources != nil:
		for id, ok := range in.Query.Sources {
			if ok {
				out = append(out, record.Source{Source: id})
			}
		}
	default:
		return nil, false
	}
	slices.SortFunc(out, func(a, b record.Source) int { return strings.Compare(a.Source, b.Source) })
	return out, true
}

// everySource stands for the source list when the caller gave none.
const everySource = "every sanction, PEP and criminal source of the database"

// queryText is the screened text as the caller gave it.
func queryText(q query.Query) string {
	if q.Names != "" {
		return q.Names
	}
	return q.SearchAll
}

func checkLabel(k query.Kind) string {
	switch k {
	case query.Individual:
		return "Individual (generateIndividualReport): individuals and records of unknown type"
	case query.Entity:
		return "Entity (generateEntityReport): entities and records of unknown type; legal forms match all their equivalents"
	}
	return "Any entity type (checkName)"
}

func fuzzyLabel(f int) string {
	switch f {
	case 1:
		return "1 spelling edit per word (none for words of 1–2 letters)"
	case 2:
		return "Up to 2 spelling edits per word (1 for words of 3–5 letters, none for 1–2)"
	}
	return "Off: every word must match exactly (after case, accent and script folding)"
}

const notGiven = "not given"

func orNotGiven(s string) string {
	if strings.TrimSpace(s) == "" {
		return notGiven
	}
	return s
}

// cover writes the first page's band, the screening request, the result
// statement and the hit summary.
func (d *doc) cover(in Input, q query.Query, res *engine.Result, id string, at time.Time, version string, sources []record.Source, known bool) {
	pdf := d.pdf
	d.fill(navy)
	pdf.Rect(0, 0, pageW, 30, "F")
	for _, ln := range d.ts.lines("AML Screening Report", stTitle, contentW) {
		d.ts.draw(ln, marginL, 15, stTitle)
	}
	kind := "Name screening"
	switch q.Kind {
	case query.Individual:
		kind = "Individual screening"
	case query.Entity:
		kind = "Entity screening"
	}
	for _, ln := range d.ts.lines(kind+" against sanction, PEP and criminal lists", stBand, contentW) {
		d.ts.draw(ln, marginL, 23, stBand)
	}
	d.textRight(pageW-marginR, 15, id, style{size: 10, bold: true, color: white})
	d.textRight(pageW-marginR, 23, at.Format("2 January 2006, 15:04:05 UTC"), stBand)
	d.y = 36

	d.heading("Screening request", 20)
	if q.Names != "" {
		d.row("Name screened", []string{q.Names}, stValueB)
	} else {
		d.row("Text screened (all fields)", []string{q.SearchAll}, stValueB)
	}
	d.row("Check", []string{checkLabel(q.Kind)}, stValue)
	if q.Kind != query.Entity {
		d.row("Date of birth", []string{orNotGiven(q.DOB)}, stValue)
		d.row("Gender", []string{orNotGiven(strings.ToLower(q.Gender))}, stValue)
		cit := notGiven
		if q.Citizenship != "" {
			cit = countryLabel(q.Citizenship)
		}
		d.row("Citizenship", []string{cit}, stValue)
	}
	d.row("Fuzzy matching", []string{fuzzyLabel(q.Fuzzy)}, stValue)
	if q.Match == query.Scored {
		// Only scored reports have the row: strict ones stay as they were.
		d.row("Match mode", []string{fmt.Sprintf("Scored: records scoring at least %v of 1", minScore(q))}, stValue)
	}
	d.row("Source types", []string{"Sanction, PEP and criminal lists only"}, stValue)
	ids := make([]string, len(sources))
	for i, s := range sources {
		ids[i] = s.Source
	}
	srcText := fmt.Sprintf("%d: %s (listed at the end of this report)", len(sources), strings.Join(ids, ", "))
	switch {
	case !known:
		srcText = everySource
	case len(sources) == 0:
		srcText = "none: no sanction, PEP or criminal source was selected"
	}
	d.row("Sources searched", []string{srcText}, stValue)

	d.heading("Screening record", 20)
	d.row("Screened at", []string{at.Format("2 January 2006, 15:04:05 UTC") + " (" + at.Format(time.RFC3339) + ")"}, stValue)
	d.row("Database version", []string{version}, stValue)
	switch {
	case in.Sample:
		d.row("Database", []string{"The sample embedded in amlscreen: generated records and a few public entries, not the sanction, PEP and criminal lists"}, stValueB)
	case in.Origin != "":
		d.row("Database", []string{in.Origin}, stValue)
	}
	d.row("Report id", []string{id}, stValue)
	d.row("Produced by", []string{"amlscreen, offline screening engine with the semantics of the /v1 screening service"}, stValue)

	d.heading("Result", 24)
	d.resultBox(q, res, in.Sample)

	if len(res.Hits) == 0 {
		return
	}
	d.heading("Hits", 20)
	links := make([]int, len(res.Hits))
	rows := make([][]string, len(res.Hits))
	for i, h := range res.Hits {
		links[i] = pdf.AddLink()
		r := h.Record
		rows[i] = []string{fmt.Sprint(i + 1), displayName(r), r.ID, r.SourceID, shortType(r.SourceType), matchKind(&h)}
	}
	d.table([]column{
		{"#", 8}, {"Name", 66}, {"Record id", 28}, {"Source", 32}, {"Type", 18}, {"Match", 22},
	}, rows, func(i int) int { return links[i] })
	d.links = links
}

// sampleNote ends the result of a report on the embedded sample.
const sampleNote = " The database searched is the sample embedded in amlscreen, generated records and a few public entries, not the sanction, PEP and criminal lists: this report screens no one. Screen against a store imported or synced from the lists."

// resultBox states the outcome in one glance: amber with the count when
// there are hits, green with a plain "no hits" statement when there are
// none. On the embedded sample it is never green: no hit there clears no
// one.
func (d *doc) resultBox(q query.Query, res *engine.Result, sample bool) {
	var big, body string
	fillC, lineC := amberFill, amberLine
	switch n := res.Total; {
	case n == 0 && sample:
		big = "No hits in the sample data: not a screening"
		body = "No record of the sample matched “" + queryText(q) + "” with the parameters above."
	case n == 0:
		big = "No hits"
		body = "No record in the sanction, PEP and criminal sources searched matched “" + queryText(q) + "” with the parameters above."
		fillC, lineC = greenFill, greenLine
	case n == 1:
		big = "1 hit"
		body = "One record matched the screened name. It is detailed in the pages that follow, with the reason it matched; review it before deciding."
	default:
		big = fmt.Sprintf("%d hits", n)
		body = fmt.Sprintf("%d records matched the screened name. Each is detailed in the pages that follow, with the reason it matched; review every hit before deciding.", n)
	}
	if res.Total > len(res.Hits) {
		body += fmt.Sprintf(" This report lists the best %d, ranked as the screening service ranks them.", len(res.Hits))
	}
	if sample {
		body += sampleNote
	}
	bigLines := d.ts.lines(big, stBig, contentW-12)
	bodyLines := d.ts.lines(body, stValue, contentW-12)
	h := float64(len(bigLines))*lead(stBig) + float64(len(bodyLines))*lead(stValue) + 6
	d.need(h)
	d.box(h, fillC, lineC)
	y := d.y + 3
	for _, ln := range bigLines {
		d.ts.draw(ln, marginL+7, baseline(y, lead(stBig), stBig), stBig)
		y += lead(stBig)
	}
	for _, ln := range bodyLines {
		d.ts.draw(ln, marginL+7, baseline(y, lead(stValue), stValue), stValue)
		y += lead(stValue)
	}
	d.y += h + 2
}

// displayName is a record's name for headings: its name, else its
// transliteration or first alias, else its id.
func displayName(r *record.Record) string {
	for _, s := range []string{r.Name, r.TLName, first(r.AliasNames)} {
		if strings.TrimSpace(s) != "" {
			return s
		}
	}
	return r.ID
}

func first(l []string) string {
	if len(l) == 0 {
		return ""
	}
	return l[0]
}

// minScore is the threshold of a scored query, the default filled in.
func minScore(q query.Query) float64 {
	if q.MinScore == 0 {
		return query.DefaultMinScore
	}
	return q.MinScore
}

// matchKind is the short verdict of the summary table.
func matchKind(h *engine.Hit) string {
	switch {
	case h.Reason != nil:
		return "Score " + engine.FormatScore(h.Score)
	case h.Exact:
		return "Exact"
	case h.Edits == 1:
		return "Fuzzy, 1 edit"
	case h.Edits > 1:
		return fmt.Sprintf("Fuzzy, %d edits", h.Edits)
	}
	return "All words"
}

// hits writes one section per hit.
func (d *doc) hits(q query.Query, res *engine.Result, src map[string]record.Source) {
	if len(res.Hits) == 0 {
		return
	}
	// The details start on a page of their own, so that the cover reads
	// as a summary and no hit begins in its last lines.
	d.pdf.AddPage()
	d.y = topY
	d.heading("Hit details", 30)
	for i := range res.Hits {
		h := &res.Hits[i]
		r := h.Record
		if i > 0 {
			d.y += 6
		}
		title := fmt.Sprintf("Hit %d of %d · %s", i+1, len(res.Hits), displayName(r))
		recLabel := "Record " + r.ID
		tl := d.ts.lines(title, stHit, max(contentW/2, contentW-d.ts.width(recLabel, stValueB)-10))
		barH := float64(len(tl))*lead(stHit) + 3
		d.need(barH + 40)
		if i < len(d.links) {
			d.pdf.SetLink(d.links[i], d.y, -1)
		}
		d.fill(lightFill)
		d.pdf.Rect(marginL, d.y, contentW, barH, "F")
		d.fill(navy)
		d.pdf.Rect(marginL, d.y, 1.6, barH, "F")
		y := d.y + 1.5
		for _, ln := range tl {
			d.ts.draw(ln, marginL+4, baseline(y, lead(stHit), stHit), stHit)
			y += lead(stHit)
		}
		d.textRight(pageW-marginR-2, baseline(d.y+1.5, lead(stHit), stHit), recLabel, stValueB)
		d.y += barH + 2

		d.subheading("Why it matched")
		d.row("Matched on", []string{matchedOn(q, h)}, stValue)
		d.row("Word pairs", []string{pairsText(q, h)}, stValue)
		for _, f := range filterNotes(q, r) {
			d.row(f[0], []string{f[1]}, stValue)
		}

		for _, g := range groups {
			type kv struct {
				label  string
				values []string
			}
			var rows []kv
			for _, a := range g.attrs {
				if v := a.get(r, src); len(v) > 0 {
					rows = append(rows, kv{a.label, v})
				}
			}
			if g.title == "Other information" {
				for _, e := range extraAttrs(r) {
					if n := len(rows); n > 0 && rows[n-1].label == e[0] {
						rows[n-1].values = append(rows[n-1].values, e[1])
					} else {
						rows = append(rows, kv{e[0], []string{e[1]}})
					}
				}
			}
			if len(rows) == 0 {
				continue
			}
			d.subheading(g.title)
			for _, kv := range rows {
				st := stValue
				if kv.label == "Name" {
					st = stValueB
				}
				d.row(kv.label, kv.values, st)
			}
		}
	}
}

// explain asks the engine why h matched (strict mode).
func explain(q query.Query, h *engine.Hit) (engine.Match, bool) {
	if q.Match == query.Scored {
		return engine.Match{}, false
	}
	m, ok, err := engine.Explain(q, h.Record)
	if err != nil || !ok {
		return engine.Match{}, false
	}
	return m, true
}

// fieldLabel names a name string (docs/MATCHING.md "Name matching") in words.
func fieldLabel(field string) string {
	switch {
	case field == "name":
		return "name"
	case field == "tl_name":
		return "name in Latin script"
	case strings.HasPrefix(field, "alias_given_names"):
		return "alias given name with last names"
	case strings.HasPrefix(field, "alias_names"):
		return "alias"
	case field == "given_names+last_names":
		return "given names with last names"
	case field == "search_all":
		return "all fields of the record"
	}
	return field
}

// matchedOn says which name of the record matched and how closely.
func matchedOn(q query.Query, h *engine.Hit) string {
	if r := h.Reason; r != nil {
		s := "The " + fieldLabel(r.Field) + " “" + r.Name + "” (" + r.Field + "): score " + engine.FormatScore(h.Score) +
			fmt.Sprintf(" of 1, at least %v needed.", minScore(q))
		if n := len(r.UnpairedQuery); n > 0 {
			s += fmt.Sprintf(" %d screened word%s without a partner.", n, plural(n))
		}
		return s
	}
	m, ok := explain(q, h)
	field, text := h.Field, ""
	if ok {
		field, text = m.Field, m.Text
	}
	s := "The " + fieldLabel(field)
	if text != "" {
		s += " “" + text + "”"
	}
	s += " (" + field + "): "
	switch {
	case h.Exact:
		s += "exact match, the screened words are exactly its words."
	case h.Edits == 0 && h.Extra > 0:
		s += fmt.Sprintf("every screened word is one of its words; it has %d more word%s.", h.Extra, plural(h.Extra))
	case h.Edits == 0:
		s += "every screened word is one of its words."
	default:
		s += fmt.Sprintf("%d spelling edit%s in total.", h.Edits, plural(h.Edits))
		if h.Extra > 0 {
			s += fmt.Sprintf(" It has %d more word%s.", h.Extra, plural(h.Extra))
		}
	}
	return s
}

// pairsText lists each screened word with the record word it paired with,
// as normalised for matching.
func pairsText(q query.Query, h *engine.Hit) string {
	if h.Reason != nil {
		return scoredPairsText(h.Reason)
	}
	m, ok := explain(q, h)
	if !ok || len(m.Pairs) == 0 {
		return "not available for this match"
	}
	parts := make([]string, 0, len(m.Pairs))
	for _, p := range m.Pairs {
		qt, tok := engine.ShowToken(p.Query), engine.ShowToken(p.Token)
		switch {
		case p.Edits == 0 && p.Query == p.Token:
			parts = append(parts, qt+" = "+tok)
		case p.Edits == 0:
			parts = append(parts, qt+" = "+tok+" (same legal form)")
		default:
			parts = append(parts, fmt.Sprintf("%s → %s (%d edit%s)", qt, tok, p.Edits, plural(p.Edits)))
		}
	}
	return strings.Join(parts, "; ")
}

// scoredPairsText lists each screened word of a scored hit with the record
// word it paired with, how, and what the pair added to the score's log
// odds; then the words left without a partner and what each cost.
func scoredPairsText(r *engine.ScoreReason) string {
	parts := make([]string, 0, len(r.Pairs)+len(r.UnpairedQuery)+len(r.UnpairedRecord))
	for _, p := range r.Pairs {
		how := p.Kind
		if p.Edits > 0 {
			how += fmt.Sprintf(", %d edit%s", p.Edits, plural(p.Edits))
		}
		parts = append(parts, fmt.Sprintf("%s → %s (%s, %+.2f)", p.Query, p.Record, how, p.Contribution))
	}
	for _, w := range r.UnpairedQuery {
		parts = append(parts, fmt.Sprintf("%s: no partner in the record (%+.2f)", w.Word, w.Contribution))
	}
	for _, w := range r.UnpairedRecord {
		parts = append(parts, fmt.Sprintf("record word %s: not screened (%+.2f)", w.Word, w.Contribution))
	}
	if len(parts) == 0 {
		return "not available for this match"
	}
	return strings.Join(parts, "; ")
}

// filterNotes records, for each filter of the query, what the record holds,
// so that a reviewer sees why it passed.
func filterNotes(q query.Query, r *record.Record) [][2]string {
	var out [][2]string
	if q.DOB != "" {
		v := "no date of birth recorded (records without one pass)"
		if len(r.DateOfBirth) > 0 {
			v = "record has " + strings.Join(r.DateOfBirth, ", ")
		}
		out = append(out, [2]string{"Date of birth filter", q.DOB + " screened; " + v})
	}
	if q.Gender != "" {
		v := "no gender recorded (records without one pass)"
		switch {
		case r.Gender != "" && !strings.EqualFold(r.Gender, record.GenderUnknown):
			v = "record has " + strings.ToLower(r.Gender)
		case r.Gender != "":
			v = "record's gender is unknown (passes)"
		}
		out = append(out, [2]string{"Gender filter", strings.ToLower(q.Gender) + " screened; " + v})
	}
	if q.Citizenship != "" {
		v := "no citizenship recorded (records without one pass)"
		if len(r.Citizenship) > 0 {
			v = "record has " + strings.Join(r.Citizenship, ", ")
		}
		out = append(out, [2]string{"Citizenship filter", strings.ToUpper(q.Citizenship) + " screened; " + v})
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// sourceList writes the sources searched with their catalogue details.
func (d *doc) sourceList(sources []record.Source) {
	d.heading("Appendix: sources searched", 20)
	if len(sources) == 0 {
		d.text(marginL, contentW, "No sanction, PEP or criminal source was selected, so nothing was searched.", stValue)
		return
	}
	rows := make([][]string, len(sources))
	for i, s := range sources {
		issuer := s.IssuerName
		if issuer == "" {
			issuer = strings.ToUpper(s.CountryCode)
		}
		rows[i] = []string{s.Source, s.Name, shortType(s.SourceType), issuer}
	}
	d.table([]column{{"Source id", 36}, {"Name", 68}, {"Type", 18}, {"Issuer", 52}}, rows, nil)
}

// signOff leaves room for the reviewer's decision, so that the printed
// report is the complete record of the screening.
func (d *doc) signOff() {
	d.heading("Reviewer's assessment", 90)
	d.text(marginL, contentW, "To be completed by the reviewing compliance officer.", stSmall)
	d.y += 2
	for _, opt := range []string{"No hit: nothing to review", "False positive: the hits are not the screened party", "Possible match: escalated for further review", "True match: the screened party is listed"} {
		h := lead(stValue) + 1.5
		d.need(h)
		d.stroke(grey)
		d.pdf.SetLineWidth(0.3)
		d.pdf.Rect(marginL+1, d.y+1.2, 3.4, 3.4, "D")
		for _, ln := range d.ts.lines(opt, stValue, contentW-10) {
			d.ts.draw(ln, marginL+7, baseline(d.y, h, stValue), stValue)
			break
		}
		d.y += h
	}
	d.y += 3
	for _, f := range []string{"Notes", "", "Reviewer", "Date", "Signature"} {
		h := 9.0
		d.need(h)
		if f != "" {
			for _, ln := range d.ts.lines(f, stLabel, labelW) {
				d.ts.draw(ln, marginL, d.y+h-1.5, stLabel)
				break
			}
		}
		d.stroke(ruleGrey)
		d.pdf.SetLineWidth(0.3)
		d.pdf.Line(marginL+28, d.y+h-1, pageW-marginR, d.y+h-1)
		d.y += h
	}
}

// watermark draws text across the middle of the page, turned and
// translucent, over the content so that no filled box hides it.
func (d *doc) watermark(text string) {
	pdf := d.pdf
	st := style{size: 40, bold: true, color: sampleRed}
	lines := d.ts.lines(text, st, 1000)
	if len(lines) == 0 {
		return
	}
	ln := lines[0]
	cx, cy := pageW/2, pageH/2
	pdf.SetAlpha(0.22, "Normal")
	pdf.TransformBegin()
	pdf.TransformRotate(55, cx, cy)
	d.ts.draw(ln, cx-ln.width/2, cy+st.size*ptToMM/3, st)
	pdf.TransformEnd()
	pdf.SetAlpha(1, "Normal")
}
