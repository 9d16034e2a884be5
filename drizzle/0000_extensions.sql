-- Custom SQL migration file, put your code below! --
-- Trigram matching backs Hebrew search (the simple text-search configuration has no Hebrew stemmer).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
