// Package media screens names against adverse media: a local corpus of news
// articles that a site imports, with the rules of docs/MATCHING.md and
// docs/API.md, "Adverse media" and "Media" (media/checkIndividual, media/checkEntity and media/search).
//
// # Corpus
//
// Articles arrive as JSON Lines (Reader) and are upserted by id, one bbolt
// transaction per file (Corpus.Import): a bad line stops the import with its
// line number and nothing of that file is applied. Each import writes one
// segment of an inverted index: for every normalised token, the articles it
// occurs in and its positions there. Segments are persisted in bbolt next to
// the articles and loaded into memory at start (Load), so a check never reads
// the disk except to fetch the articles it returns. An upsert leaves the old
// version's postings behind as garbage that queries skip; once garbage
// outweighs live postings, an import rewrites the index in one segment.
//
// # Matching
//
// Article text goes through package normalize exactly like AML names do:
// folding, diacritics, Cyrillic and Greek transliteration, hyphenated
// compounds indexed as parts and joined. Legal-form aliases in the text
// ("limited liability company", "OOO", "GmbH") are also indexed as their
// canonical class token at the same position, so entity checks find every
// spelling of a legal form.
//
// An article mentions a name when every token of the name can be given its
// own position in the article such that, in position order, neighbouring
// name tokens are at most MaxGap positions apart (at most two other words
// between them). Any order counts, which covers "Ivan Petrov",
// "Petrov, Ivan" and "Petrov Ivan Sergeyevich" alike. Mentions never span
// the headline and the body, nor two paragraphs. fuzzy_search 1 or 2
// applies the engine's rule per token (engine.AllowedEdits).
//
// # Categories
//
// An article carries the categories given in its "categories" field, or,
// when the field is absent, those the built-in multilingual lexicon finds
// in its text (see lexicon.txt and Lexicon).
package media
