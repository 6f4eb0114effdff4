/**
 * The {@code pfabric} command line: the root command and its subcommands, each mapping options onto the classes of
 * another module.
 */
package io.pfabric.cli;
