# frozen_string_literal: true

# The demo app in strada-host as a Rails system test drives an app: Capybara with Selenium through
# WebKitWebDriver for the page, `using_native` for the native controls. Run by scripts/test-clients:
#   STRADA_HOST=… STRADA_PLUGINS=… ruby -Ilib test/demo_test.rb
require "minitest/autorun"
require "open3"
require "tmpdir"
require "capybara/minitest"
require "strada/capybara"

REPOSITORY = File.expand_path("../../..", __dir__)
_input, server_out, server = Open3.popen2("python3", File.join(REPOSITORY, "Examples/demo/server.py"), "--port", "0",
                                        err: File::NULL)
DEMO = server_out.gets.split.last.chomp("/")
# The app server goes with the tests (Rails' own system tests stop theirs the same way).
Minitest.after_run do
  Process.kill("TERM", server.pid)
  server.join
rescue Errno::ESRCH
  nil
end

Capybara.app_host = DEMO
Capybara.run_server = false
Capybara.default_max_wait_time = 10
Strada.register_driver(plugins: ENV.fetch("STRADA_PLUGINS").split(":"), allow: [DEMO])
Capybara.current_driver = :strada

class DemoTest < Minitest::Test
  include Capybara::DSL
  include Capybara::Minitest::Assertions
  include Strada::DSL

  def teardown
    Strada.save_artifacts(File.join(ENV.fetch("STRADA_ARTIFACTS", "strada-artifacts"), name)) unless passed?
  end

  def test_the_form_the_menu_and_the_alert
    visit "/posts/new"
    fill_in "title", with: "Hello from Capybara"
    using_native { click_native_button "Save" }
    assert_selector "#post-title", text: "Hello from Capybara"

    visit "/menu"
    find("[data-menu-trigger]").click
    using_native { choose_native_menu_item "Size", menu: "Sort by" }
    assert_selector "#sort-label", text: "size"

    visit "/alert"
    find("#delete").click
    using_native { accept_native_alert "Delete this draft?" }
    assert_title "alert: confirmed, draft deleted"
  end
  # Clicks, typing, hovering, double clicks and drags are a person's input: strada-webdriver makes them real X
  # input into the host's window, so the page sees every event trusted (event.isTrusted).
  def test_clicks_typing_hover_double_click_and_a_drag_are_trusted
    visit "/input"
    find("#target").double_click
    find("#target").click
    find("#hover").hover
    assert_selector "#hover", text: "Hovered"
    find("#handle").drag_to(find("#drop"))
    assert_selector "#dropped", text: "Dropped (trusted)"

    fill_in "Text", with: "Hello from Capybara\n"
    assert_selector "#submitted", text: "Submitted: Hello from Capybara"
    fill_in "Text", with: "Again"
    find_field("Text").send_keys([:shift, "b"], :backspace, "!", :enter)
    assert_selector "#submitted", text: "Submitted: Again!"

    select "Second", from: "Choice"
    attach_file "File", __FILE__
    assert_equal %w[choice file], evaluate_script("inputEvents").select { |e| e["type"] == "change" }.map { |e| e["target"] }

    recorded = evaluate_script("inputEvents").reject { |e| e["type"] == "change" } # scripted, as the spec says
    clicks = recorded.map { |e| e["type"] }.select { |type| %w[click dblclick].include?(type) }
    assert_equal %w[click click dblclick click], clicks
    assert(recorded.any? { |e| e["type"] == "keydown" && e["key"] == "B" && e["shift"] })
    assert_equal ["Hello from Capybara", "Again!"], recorded.select { |e| e["type"] == "submit" }.map { |e| e["value"] }
    assert(%w[mouseenter mousedown mouseup keydown].all? { |type| recorded.any? { |e| e["type"] == type } })
    assert(recorded.all? { |e| e["trusted"] }, recorded.reject { |e| e["trusted"] }.inspect)
  end

  def test_page_and_element_screenshots_answer_with_the_hosts_defaults
    refute_equal "1", ENV["STRADA_WEBKIT_HW_ACCEL"] # acceleration off: WebKit answers only after a new frame
    visit "/posts/new"
    assert_selector "input[name=title]"
    path = File.join(Dir.mktmpdir("strada-shot-"), "page.png")
    2.times do # an idle page, twice: nothing else makes a frame
      save_screenshot(path)
      width, height = png_size(File.binread(path))
      assert_operator width, :>=, 300
      assert_operator height, :>=, 200
    end
    field = find("input[name=title]").native
    width, height = png_size(field.screenshot_as(:png))
    assert_operator width, :>, 0
    assert_operator width, :<=, field.size.width + 2
    assert_operator height, :<=, field.size.height + 2
    assert_equal 0, page.evaluate_script("document.querySelectorAll('strada-repaint').length")
  end

  private

  # A PNG's width and height (its IHDR chunk); fails when `data` is not a PNG.
  def png_size(data)
    assert_equal "\x89PNG\r\n\x1A\n".b, data[0, 8].b
    data[16, 8].unpack("NN")
  end
end
