// The translation unit that builds the tests' precompiled header (testpch.h);
// it has no code of its own.
