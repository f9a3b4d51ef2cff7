# frozen_string_literal: true

# Capybara system tests for a Hotwire app running in strada-host: the page through WebKit's own WebDriver
# (WebKitWebDriver, Debian webkit2gtk-driver) as with any Selenium driver, the native controls — header-bar
# buttons, menus, alerts, the search bar, the window title, toasts, Back — through the host's automation
# socket, in the same session:
#
#   require "strada/capybara"
#   Strada.register_driver(plugins: "plugins", allow: ["http://127.0.0.1:3000"])
#   Capybara.current_driver = :strada
#
#   visit "/posts/new"
#   fill_in "title", with: "Hello"
#   using_native { click_native_button "Save" }
#   assert_selector "h1", text: "Hello"
require "capybara"
require "capybara/dsl"
require "fileutils"
require "json"
require "selenium-webdriver"
require "socket"
require "tmpdir"

module Strada
  # strada-webdriver, the intermediary in front of WebKitWebDriver that makes input real: $STRADA_WEBDRIVER,
  # else where this repository keeps it (clients/python/strada_testing/webdriver.py), else on the PATH.
  def self.webdriver
    ENV["STRADA_WEBDRIVER"] || [File.expand_path("../../../python/strada_testing/webdriver.py", __dir__)]
      .find { |path| File.exist?(path) } || "strada-webdriver"
  end

  # A native control was not shown, or the host refused a command (its reason is the message).
  class NativeError < StandardError; end

  # The host's automation channel on its Unix socket: every event, and commands on native controls.
  class Native
    attr_reader :events

    def initialize(path, timeout: 30)
      deadline = Time.now + timeout
      begin
        @socket = UNIXSocket.new(path)
      rescue SystemCallError
        raise NativeError, "no strada-host automation socket at #{path}" if Time.now > deadline

        sleep 0.05
        retry
      end
      @events = []
      @lock = Mutex.new
      @changed = ConditionVariable.new
      @reader = Thread.new { read }
    end

    def close
      @socket.close unless @socket.closed?
    end

    # The first event `name` from index `after` on whose fields match (a Proc is a predicate).
    def wait_for(name, after: 0, timeout: 15, **fields)
      deadline = Time.now + timeout
      @lock.synchronize do
        loop do
          found = @events[after..].find do |event|
            event["event"] == name && fields.all? { |key, value| value.is_a?(Proc) ? value.call(event[key.to_s]) : event[key.to_s] == value }
          end
          return found if found
          raise NativeError, "timed out waiting for #{name} #{fields}" if Time.now > deadline

          @changed.wait(@lock, [deadline - Time.now, 0.05].max)
        end
      end
    end

    # Sends a command; returns its command.ok (or controls) event, raises on command.error.
    def command(name, **arguments)
      mark = @lock.synchronize { @events.size }
      @socket.write(JSON.generate({ command: name }.merge(arguments)) + "\n")
      deadline = Time.now + 15
      @lock.synchronize do
        loop do
          @events[mark..].each do |event|
            return event if name == "controls" && event["event"] == "controls"
            next unless %w[command.ok command.error].include?(event["event"]) && event["command"] == name
            raise NativeError, "#{name}: #{event['error']}" if event["event"] == "command.error"

            return event
          end
          raise NativeError, "no answer to #{name}" if Time.now > deadline

          @changed.wait(@lock, 0.05)
        end
      end
    end

    def controls
      command("controls")["controls"]
    end

    # Waits until a control with that title (or id) and kind is shown, and returns it.
    def control(title = nil, kind: nil, id: nil, timeout: 10)
      deadline = Time.now + timeout
      loop do
        found = controls.find do |control|
          (id.nil? || control["id"] == id) && (title.nil? || control["title"] == title) && (kind.nil? || control["kind"] == kind)
        end
        return found if found
        if Time.now > deadline
          shown = controls.map { |c| "#{c['kind']} #{c['title'].inspect}" }.join(", ")
          raise NativeError, "no native #{kind || 'control'} #{(title || id).inspect} shown (shown: #{shown.empty? ? 'none' : shown})"
        end

        sleep 0.1
      end
    end

    def press(title)
      command("activate", control: control(title, kind: "button")["id"])
    end

    def choose(item, menu: nil)
      shown = control(menu, kind: "menu")
      entry = (shown["items"] || []).find { |candidate| candidate["title"] == item }
      raise NativeError, "menu #{shown['title'].inspect} has no item #{item.inspect}" unless entry

      command("choose", control: shown["id"], index: entry["index"])
    end

    def confirm(title = nil)
      command("confirm", control: control(title, kind: "dialog")["id"])
    end

    def dismiss(title = nil)
      shown = controls.find { |c| %w[dialog menu].include?(c["kind"]) && (title.nil? || c["title"] == title) }
      raise NativeError, "no native alert or menu to dismiss" unless shown

      command("dismiss", control: shown["id"])
    end

    def search(text)
      command("type", control: control(kind: "search")["id"], text: text)
    end

    def back
      command("back")
    end

    def window_title
      @lock.synchronize { @events.reverse.find { |e| e["event"] == "window.title" }&.dig("title") }
    end

    def toasts
      @lock.synchronize { @events.select { |e| e["event"] == "toast" }.map { |e| e["message"] } }
    end

    def traffic
      @lock.synchronize { @events.select { |e| e["event"].to_s.start_with?("bridge.") } }
    end

    # The whole window, header bar, popovers and dialogs included, as a PNG file.
    def screenshot(path)
      command("screenshot", path: File.expand_path(path))
      path
    end

    private

    def read
      buffer = +""
      while (chunk = @socket.readpartial(65_536) rescue nil)
        buffer << chunk
        while (newline = buffer.index("\n"))
          line = buffer.slice!(0..newline)
          event = JSON.parse(line) rescue next
          @lock.synchronize do
            @events << event
            @changed.broadcast
          end
        end
      end
    end
  end

  # What `using_native { … }` offers.
  module NativeDSL
    def click_native_button(title) = Strada.native.press(title)
    def choose_native_menu_item(item, menu: nil) = Strada.native.choose(item, menu: menu)
    def accept_native_alert(title = nil) = Strada.native.confirm(title)
    def dismiss_native_alert(title = nil) = Strada.native.dismiss(title)
    def search_natively(text) = Strada.native.search(text)
    def go_back_natively = Strada.native.back
    def native_window_title = Strada.native.window_title
    def native_toasts = Strada.native.toasts
    def native_controls = Strada.native.controls
  end

  # `using_native { click_native_button "Save" }`, in any Capybara test.
  module DSL
    def using_native(&block)
      Object.new.extend(NativeDSL).instance_eval(&block)
    end
  end

  class << self
    attr_reader :native, :log_path, :workspace

    # Registers Capybara driver `name`: strada-webdriver (started here, on a free port, in front of
    # WebKitWebDriver) starts strada-host with `plugins` and the bridge for `allow`; clicks, typing and the
    # actions API are real X input into the host's window. The native channel is `Strada.native`.
    def register_driver(name = :strada, plugins: [], allow: [], host: ENV["STRADA_HOST"] || "strada-host", args: [],
                        webdriver: Strada.webdriver)
      ::Capybara.register_driver(name) do |app|
        @workspace = Dir.mktmpdir("strada-test-")
        socket = File.join(@workspace, "automation.sock")
        @log_path = File.join(@workspace, "host.log")
        arguments = ["run", "--webdriver", "--ephemeral", "--automation-socket", socket, "--log-file", @log_path]
        Array(plugins).each { |folder| arguments += ["--plugins", folder] }
        Array(allow).each { |origin| arguments += ["--allow-origin", origin] }
        port = start_webdriver(webdriver)
        capabilities = Selenium::WebDriver::Remote::Capabilities.new(
          browser_name: "strada-host", "webkitgtk:browserOptions" => { binary: host, args: arguments + args }
        )
        driver = ::Capybara::Selenium::Driver.new(app, browser: :remote, url: "http://127.0.0.1:#{port}",
                                                         capabilities: capabilities)
        driver.browser # start the session now: the socket exists once the host runs
        @native&.close
        @native = Native.new(socket)
        @native.wait_for("host.ready")
        driver
      end
    end

    # Saves what a failing test needs: the window (screenshot.png), the bridge traffic (traffic.jsonl), every
    # event (events.jsonl) and the host's log (host.log). Returns the folder.
    def save_artifacts(folder)
      FileUtils.mkdir_p(folder)
      begin
        native.screenshot(File.join(folder, "screenshot.png"))
      rescue StandardError => e
        File.write(File.join(folder, "screenshot-error.txt"), e.message)
      end
      File.write(File.join(folder, "traffic.jsonl"), native.traffic.map { |e| JSON.generate(e) + "\n" }.join)
      File.write(File.join(folder, "events.jsonl"), native.events.map { |e| JSON.generate(e) + "\n" }.join)
      FileUtils.cp(log_path, File.join(folder, "host.log")) if log_path && File.exist?(log_path)
      folder
    end

    private

    # strada-webdriver: a Python 3 script (standard library only) that forwards every command to
    # WebKitWebDriver and performs clicks, typing and actions as real input (see clients/python).
    def start_webdriver(script)
      command = script.end_with?(".py") ? ["python3", script] : [script]
      output = IO.popen(command + ["--port", "0"], err: File::NULL)
      at_exit { Process.kill("TERM", output.pid) rescue nil }
      line = output.gets.to_s
      unless line.start_with?("listening on ")
        raise NativeError, "strada-webdriver (#{command.join(' ')}) did not start: it needs python3 and " \
                           "WebKitWebDriver (Debian's webkit2gtk-driver); STRADA_WEBDRIVER names it"
      end

      Integer(line[%r{:(\d+)/?\s*$}, 1])
    rescue SystemCallError => e
      raise NativeError, "strada-webdriver (#{command.join(' ')}) cannot run: #{e.message}"
    end
  end
end
