// `arenactl --help`, `arenactl help COMMAND` and `arenactl COMMAND --help`: what a command does,
// its arguments and the flags it reads (with their defaults), and nothing else — not the
// hundreds of flags the libraries linked in define.
#pragma once

#include <string>
#include <vector>

namespace arena::arenactl {

// Whether the command line asks for help (--help, -h, --helpfull, or the command "help"); if so
// *command is the command it is about ("" for the overview).
bool WantsHelp(int argc, char** argv, std::string* command);

// Prints the help for `command` ("" for the overview) to stdout; returns the exit code (0, or 2
// for an unknown command).
int PrintHelp(const std::string& command, const std::string& overview);

// The command names help knows.
std::vector<std::string> HelpCommands();

}  // namespace arena::arenactl
