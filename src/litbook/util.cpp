#include "util.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

extern char** environ;

namespace litbook {

std::string Diagnostic::format() const {
  if (where.file.empty()) return "litbook: " + message;
  if (where.line <= 0) return where.file + ": " + message;
  return where.file + ":" + std::to_string(where.line) + ": " + message;
}

namespace {
std::string join_messages(const std::vector<Diagnostic>& diags) {
  std::string out;
  for (const auto& d : diags) {
    if (!out.empty()) out += '\n';
    out += d.format();
  }
  return out;
}
}  // namespace

Failure::Failure(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(join_messages(diagnostics)),
      diags_(std::move(diagnostics)) {}

Failure::Failure(Location where, std::string message)
    : Failure(std::vector<Diagnostic>{{std::move(where), std::move(message)}}) {}

void report_file(std::vector<Diagnostic>& out, std::string file,
                 std::string message) {
  Diagnostic& d = out.emplace_back();
  d.where.file = std::move(file);
  d.message = std::move(message);
}

void Diagnostics::add(Location where, std::string message) {
  list_.push_back({std::move(where), std::move(message)});
}

void Diagnostics::throw_if_any() const {
  if (!list_.empty()) throw Failure(list_);
}

std::optional<std::string> read_file_if_exists(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string read_file(const fs::path& path) {
  auto text = read_file_if_exists(path);
  if (!text) {
    throw Failure({display_path(path), 0},
                  std::string("cannot read file: ") + std::strerror(errno));
  }
  return *text;
}

void write_atomic(const fs::path& path, std::string_view bytes) {
  if (path.has_parent_path()) fs::create_directories(path.parent_path());
  fs::path tmp = path;
  tmp += ".tmp-" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::error_code ignored;
      fs::remove(tmp, ignored);
      throw Failure({display_path(path), 0}, "cannot write file");
    }
  }
  fs::rename(tmp, path);
}

bool write_if_changed(const fs::path& path, std::string_view bytes) {
  auto old = read_file_if_exists(path);
  if (old && *old == bytes) return false;
  write_atomic(path, bytes);
  return true;
}

std::string display_path(const fs::path& path) {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  if (!ec && path.is_absolute()) {
    fs::path rel = path.lexically_relative(cwd);
    if (!rel.empty() && *rel.begin() != "..") return rel.generic_string();
  }
  return path.generic_string();
}

std::string hash_hex(std::string_view bytes) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    std::size_t end = nl;
    if (end > start && text[end - 1] == '\r') --end;
    lines.emplace_back(text.substr(start, end - start));
    start = nl + 1;
  }
  return lines;
}

bool is_valid_name(std::string_view name) {
  if (name.empty()) return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
    if (!ok) return false;
  }
  return name.front() != '-';
}

std::optional<std::pair<int, int>> first_invalid_utf8(std::string_view t) {
  int line = 1, col = 1;
  std::size_t i = 0;
  while (i < t.size()) {
    auto c = static_cast<unsigned char>(t[i]);
    std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3
                      : (c >> 3) == 0x1E ? 4 : 0;
    bool ok = len > 0 && i + len <= t.size();
    for (std::size_t k = 1; ok && k < len; ++k) {
      ok = (static_cast<unsigned char>(t[i + k]) & 0xC0) == 0x80;
    }
    if (ok && len == 2) ok = c >= 0xC2;  // no overlong forms
    if (ok && len == 3) {
      auto c1 = static_cast<unsigned char>(t[i + 1]);
      ok = !(c == 0xE0 && c1 < 0xA0) && !(c == 0xED && c1 >= 0xA0);
    }
    if (ok && len == 4) {
      auto c1 = static_cast<unsigned char>(t[i + 1]);
      ok = c <= 0xF4 && !(c == 0xF0 && c1 < 0x90) && !(c == 0xF4 && c1 >= 0x90);
    }
    if (!ok) return std::make_pair(line, col);
    if (c == '\n') {
      ++line;
      col = 1;
    } else {
      col += static_cast<int>(len);
    }
    i += len;
  }
  return std::nullopt;
}

std::string format_fixed(double v, int decimals) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  std::string s = buf;
  if (s[0] == '-' && s.find_first_not_of("-0.") == std::string::npos) {
    s.erase(0, 1);
  }
  return s;
}

// ---- processes ----------------------------------------------------------

namespace {

void set_nonblocking(int fd) {
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

}  // namespace

ProcessResult run_process(const std::vector<std::string>& argv,
                          const ProcessOptions& options) {
  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (::pipe(in_pipe) || ::pipe(out_pipe) || ::pipe(err_pipe)) {
    throw Failure({}, "cannot create pipes to run " + argv.at(0));
  }
  pid_t pid = ::fork();
  if (pid < 0) throw Failure({}, "cannot start " + argv.at(0));
  if (pid == 0) {
    ::setpgid(0, 0);  // own group, so a timeout can stop its children too
    ::dup2(in_pipe[0], 0);
    ::dup2(out_pipe[1], 1);
    ::dup2(err_pipe[1], 2);
    for (int fd : {in_pipe[0], in_pipe[1], out_pipe[0], out_pipe[1],
                   err_pipe[0], err_pipe[1]}) {
      ::close(fd);
    }
    for (const auto& [k, v] : options.env) ::setenv(k.c_str(), v.c_str(), 1);
    if (options.cwd && ::chdir(options.cwd->c_str()) != 0) _exit(126);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::string msg = "cannot run " + argv[0] + ": " + std::strerror(errno);
    ssize_t ignored = ::write(2, msg.data(), msg.size());
    (void)ignored;
    _exit(127);
  }
  ::setpgid(pid, pid);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  set_nonblocking(in_pipe[1]);
  set_nonblocking(out_pipe[0]);
  set_nonblocking(err_pipe[0]);

  ProcessResult result;
  std::size_t written = 0;
  bool in_open = true, out_open = true, err_open = true;
  if (options.input.empty()) {
    ::close(in_pipe[1]);
    in_open = false;
  }
  auto start = std::chrono::steady_clock::now();
  char buf[65536];
  bool killed = false;
  while (out_open || err_open) {
    std::vector<pollfd> fds;
    if (in_open) fds.push_back({in_pipe[1], POLLOUT, 0});
    if (out_open) fds.push_back({out_pipe[0], POLLIN, 0});
    if (err_open) fds.push_back({err_pipe[0], POLLIN, 0});
    int wait_ms = 200;
    ::poll(fds.data(), fds.size(), wait_ms);
    for (auto& p : fds) {
      if (p.fd == in_pipe[1] && (p.revents & (POLLOUT | POLLERR | POLLHUP))) {
        ssize_t n = ::write(in_pipe[1], options.input.data() + written,
                            options.input.size() - written);
        if (n > 0) written += static_cast<std::size_t>(n);
        if (n < 0 && errno != EAGAIN) written = options.input.size();
        if (written >= options.input.size()) {
          ::close(in_pipe[1]);
          in_open = false;
        }
      } else if (p.revents & (POLLIN | POLLHUP | POLLERR)) {
        ssize_t n = ::read(p.fd, buf, sizeof buf);
        bool is_out = p.fd == out_pipe[0];
        if (n > 0) {
          std::string& dst = is_out ? result.out : result.err;
          dst.append(buf, static_cast<std::size_t>(n));
          if (is_out && dst.size() > options.max_output && !killed) {
            result.output_too_large = true;
            ::kill(-pid, SIGKILL);
            killed = true;
          }
        } else if (n == 0 || (n < 0 && errno != EAGAIN)) {
          ::close(p.fd);
          (is_out ? out_open : err_open) = false;
        }
      }
    }
    if (options.timeout && !killed &&
        std::chrono::steady_clock::now() - start > *options.timeout) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      killed = true;
    }
  }
  if (in_open) ::close(in_pipe[1]);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (options.timeout && !killed &&
        std::chrono::steady_clock::now() - start > *options.timeout) {
      result.timed_out = true;
      ::kill(-pid, SIGKILL);
      killed = true;
    }
    ::usleep(5000);
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  return result;
}

}  // namespace litbook
