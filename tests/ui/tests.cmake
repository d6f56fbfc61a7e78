# The GUI's testing hook end to end: open, fuse, simulate, lay out, save a screenshot, exit 0.
if(TARGET fusion-workbench)
  add_test(NAME gui_screenshot_hook
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME=${CMAKE_BINARY_DIR}/gui_test_config
            $<TARGET_FILE:fusion-workbench> --model zoo:resnet50?image=64 --opt-level 2
            --screenshot ${CMAKE_BINARY_DIR}/gui_screenshot_test.png)
  add_test(NAME gui_screenshot_written
    COMMAND ${CMAKE_COMMAND} -E md5sum ${CMAKE_BINARY_DIR}/gui_screenshot_test.png)
  set_tests_properties(gui_screenshot_hook PROPERTIES TIMEOUT 300 FIXTURES_SETUP gui_shot)
  set_tests_properties(gui_screenshot_written PROPERTIES FIXTURES_REQUIRED gui_shot)
  add_test(NAME gui_bad_model_exits_2
    COMMAND sh -c "QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME='${CMAKE_BINARY_DIR}/gui_test_config' \"$0\" --model /nonexistent/model.onnx --screenshot '${CMAKE_BINARY_DIR}/gui_never_written.png'; test $? -eq 2"
            $<TARGET_FILE:fusion-workbench>)
  set_tests_properties(gui_bad_model_exits_2 PROPERTIES TIMEOUT 120)
  # --expand: a folded group opens in place and the run says so (and how responsive it stayed); a group
  # the views do not show is refused with the list of those they do, exit 2.
  set(FW_GUI_BIG "zoo:bert?layers=48&hidden=32&heads=2&seq=8")
  add_test(NAME gui_expand_opens_a_group_in_place
    COMMAND sh -c "QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME='${CMAKE_BINARY_DIR}/gui_test_config' \"$0\" --model '${FW_GUI_BIG}' --expand encoder/layer/40-47 --screenshot '${CMAKE_BINARY_DIR}/gui_expand.png' >'${CMAKE_BINARY_DIR}/gui_expand.log' 2>&1 && grep -q \"Expanded 'encoder/layer/40-47' in the before view: 8 boxes in its place .* (in place)\" '${CMAKE_BINARY_DIR}/gui_expand.log' && grep -q 'longest event-loop gap [0-9]* ms' '${CMAKE_BINARY_DIR}/gui_expand.log'"
            $<TARGET_FILE:fusion-workbench>)
  add_test(NAME gui_expand_unknown_group_exits_2
    COMMAND sh -c "QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME='${CMAKE_BINARY_DIR}/gui_test_config' \"$0\" --model '${FW_GUI_BIG}' --expand no/such --screenshot '${CMAKE_BINARY_DIR}/gui_never_expanded.png' >'${CMAKE_BINARY_DIR}/gui_expand_bad.log' 2>&1; test $? -eq 2 && grep -q -e \"--expand: before view: 'no/such' is not a folded group of this view; it shows 'encoder/layer/0-39'\" '${CMAKE_BINARY_DIR}/gui_expand_bad.log' && test ! -e '${CMAKE_BINARY_DIR}/gui_never_expanded.png'"
            $<TARGET_FILE:fusion-workbench>)
  set_tests_properties(gui_expand_opens_a_group_in_place gui_expand_unknown_group_exits_2 PROPERTIES TIMEOUT 300)
  # What the user sees on real-world models with no flags: the timing table has kernel rows.
  foreach(rw ch_PP-OCRv4_rec_infer silero_vad_v5)
    add_test(NAME gui_timing_csv_${rw}
      COMMAND sh -c "QT_QPA_PLATFORM=offscreen XDG_CONFIG_HOME='${CMAKE_BINARY_DIR}/gui_test_config' \"$0\" --model '${CMAKE_BINARY_DIR}/realworld/models/${rw}.onnx' --opt-level 2 --screenshot '${CMAKE_BINARY_DIR}/gui_${rw}.png' --timing-csv '${CMAKE_BINARY_DIR}/gui_${rw}.csv' && head -1 '${CMAKE_BINARY_DIR}/gui_${rw}.csv' | grep -q 'Before.*After' && test $(grep -c -v 'not simulated' '${CMAKE_BINARY_DIR}/gui_${rw}.csv') -ge 6"
              $<TARGET_FILE:fusion-workbench>)
    set_tests_properties(gui_timing_csv_${rw} PROPERTIES TIMEOUT 300 FIXTURES_REQUIRED realworld)
  endforeach()
endif()
