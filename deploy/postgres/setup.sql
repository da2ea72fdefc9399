-- PostgreSQL for Balcão (Debian: apt-get install -y postgresql; then as postgres: psql -f setup.sql).
-- The API creates its tables itself (migrations at start, one instance at a time).
CREATE ROLE balcao LOGIN PASSWORD 'CHANGE-ME';
CREATE DATABASE balcao OWNER balcao ENCODING 'UTF8' TEMPLATE template0;
-- pg_trgm (product search) is created by the migrations: the role must be allowed to, or create it here
-- as a superuser first:
\c balcao
CREATE EXTENSION IF NOT EXISTS pg_trgm;
